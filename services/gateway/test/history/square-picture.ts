import { crc32, deflateSync } from 'node:zlib';

/**
 * A 400×200 white PNG with a black 60 px square at (left, top): a crawler screenshot whose
 * square moves between checks. Written by hand so the gateway's tests need no image library.
 */
export function squarePicture(left: number, top: number): Buffer {
  const [width, height, side] = [400, 200, 60];
  const stride = width * 3 + 1;
  const pixels = Buffer.alloc(stride * height, 255);
  for (let y = 0; y < height; y++) {
    pixels[y * stride] = 0;
    if (y < top || y >= top + side) continue;
    pixels.fill(0, y * stride + 1 + left * 3, y * stride + 1 + (left + side) * 3);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(pixels)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}
