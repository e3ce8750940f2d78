import { describe, expect, it } from 'vitest';
import { areasDigest } from './areas-digest.ts';

const area = (areaId: string, html: string, text: string, found = true) => ({ areaId, found, html, text });

describe('areasDigest', () => {
  it('is the same for the same reading and differs when anything read differs', () => {
    const reading = [area('a', '<p>1</p>', '1'), area('b', '<p>2</p>', '2')];
    const digest = areasDigest(reading);
    expect(digest).toMatch(/^[0-9a-f]{64}$/);
    expect(areasDigest(reading.map((one) => ({ ...one })))).toBe(digest);
    expect(areasDigest([area('a', '<p>1</p>', '1'), area('b', '<p>2</p>', '3')])).not.toBe(digest);
    expect(areasDigest([area('a', '<p>1</p>', '1'), area('b', '<b>2</b>', '2')])).not.toBe(digest);
    expect(areasDigest([area('a', '<p>1</p>', '1'), area('b', '<p>2</p>', '2', false)])).not.toBe(digest);
    expect(areasDigest([area('b', '<p>2</p>', '2'), area('a', '<p>1</p>', '1')])).not.toBe(digest);
  });

  it('does not confuse where one field ends and the next begins', () => {
    expect(areasDigest([area('a', 'xy', 'z')])).not.toBe(areasDigest([area('a', 'x', 'yz')]));
    expect(areasDigest([area('a', '', 'b')])).not.toBe(areasDigest([area('ab', '', '')]));
  });
});
