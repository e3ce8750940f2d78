import { createHash } from 'node:crypto';
import type { AreaContent } from './page-fetcher.ts';

/**
 * sha256 (hex) of what a check read of its areas: each area's id, whether it was found, its HTML
 * and its text. Two checks of a site with the same settings and the same digest are judged alike
 * against the same recorded version, so the second cannot make an update (docs/product.md#checks).
 */
export function areasDigest(
  areas: readonly Pick<AreaContent, 'areaId' | 'found' | 'html' | 'text'>[],
): string {
  const hash = createHash('sha256');
  for (const area of areas) {
    // Lengths first, so no two different lists of areas hash the same text.
    hash.update(
      `${area.areaId.length}:${area.areaId}|${area.found ? 1 : 0}|${area.html.length}|${area.text.length}|`,
    );
    hash.update(area.html);
    hash.update(area.text);
  }
  return hash.digest('hex');
}
