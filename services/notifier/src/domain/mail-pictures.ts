import sharp from 'sharp';
import type { UpdateImage } from './update-notice.ts';

/**
 * The pictures as mail programs show them: several (older Outlook, some webmail) do not display
 * WebP, which the diff service writes. JPEG at this quality keeps page text sharp at about a
 * third of PNG's size for a screenshot; 4:4:4 keeps the red box and coloured text free of fringes.
 */
export async function mailPictures(images: readonly UpdateImage[]): Promise<UpdateImage[]> {
  return Promise.all(
    images.map(async (image) => {
      if (image.contentType === 'image/jpeg' || image.contentType === 'image/png') return image;
      const data = await sharp(image.data)
        .flatten({ background: '#ffffff' })
        .jpeg({ quality: 82, chromaSubsampling: '4:4:4', mozjpeg: true })
        .toBuffer();
      return { name: image.name, data: new Uint8Array(data), contentType: 'image/jpeg' };
    }),
  );
}
