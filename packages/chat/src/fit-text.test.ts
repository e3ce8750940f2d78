import { describe, expect, it } from 'vitest';
import { cutText, fitBody } from './fit-text.ts';
import { imageSize } from './image-size.ts';

describe('cutting text to a limit', () => {
  it('ends a cut with … inside the limit and never splits a surrogate pair', () => {
    expect(cutText('あいうえお', 5)).toBe('あいうえお');
    expect(cutText('あいうえお', 4)).toBe('あいう…');
    expect(cutText('a😀b', 3)).toBe('a…');
    expect(fitBody('本文'.repeat(10), 90, 100)).toBe('本文本文本文本文本…');
    expect(fitBody('本文'.repeat(10), 95, 100)).toBe('');
  });
});

describe('reading a picture’s size', () => {
  it('reads PNG and JPEG headers and nothing else', () => {
    const png = Buffer.alloc(24);
    png.writeUInt32BE(0x89504e47, 0);
    png.write('IHDR', 12, 'ascii');
    png.writeUInt32BE(1280, 16);
    png.writeUInt32BE(720, 20);
    expect(imageSize(png)).toEqual({ width: 1280, height: 720 });
    // SOI, an APP0 segment of 16 bytes, then SOF0 with height 480 and width 640.
    const jpeg = Buffer.concat([
      Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]),
      Buffer.alloc(14),
      Buffer.from([0xff, 0xc0, 0x00, 0x11, 0x08, 0x01, 0xe0, 0x02, 0x80, 0x03]),
    ]);
    expect(imageSize(jpeg)).toEqual({ width: 640, height: 480 });
    expect(imageSize(Buffer.from('GIF89a........'))).toBeNull();
  });
});
