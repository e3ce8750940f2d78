/** One update as it is told to a person, whatever the channel. */
export interface UpdateNotice {
  label: string;
  url: string;
  lang: 'ja' | 'en';
  /** The reader's time zone; empty or unknown falls back to the language's usual one. */
  timezone: string;
  detectedAt: Date;
  /** The update in one line, in the reader's language (docs/product.md#summary). */
  summary: string;
  /** Each changed area, named as the person named it ('' when they did not), with its own line. */
  areas: { areaId: string; label: string; diffText: string; summary: string }[];
  /** Every area's name by id, for the matched rules (which name areas that may not have changed). */
  areaLabels: Record<string, string>;
  /** The site's history page in the web app; empty when the product's address is not known. */
  historyUrl: string;
  matched: {
    groupIndex: number;
    conditionIndex: number;
    areaId: string;
    operand: string;
    operator: string;
    value: string;
  }[];
  /** Before/after pictures, when the site takes screenshots. */
  images: UpdateImage[];
}

export interface UpdateImage {
  /** "before" or "after"; also the picture's Content-ID and file name stem. */
  name: 'before' | 'after';
  data: Uint8Array;
  contentType: string;
}

export function imageFileName(image: UpdateImage): string {
  const extension = image.contentType.split('/')[1]?.split(/[;+]/)[0] || 'bin';
  return `${image.name}.${extension}`;
}
