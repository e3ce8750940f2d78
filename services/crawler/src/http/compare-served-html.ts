import { type AreaRequest, pageLocator } from '../domain/page-fetcher.ts';
import { InvalidSelectorError, ParsedPage } from './parsed-page.ts';

export interface AreaAsSeen extends AreaRequest {
  /** The area's visible text in the browser. */
  text: string;
}

export interface ServedHtmlComparison {
  /** Every area is in the served HTML with the text the browser showed: HTTP mode will do. */
  httpSuffices: boolean;
  areas: { areaId: string; found: boolean; sameText: boolean }[];
}

/**
 * The wizard's fetch-mode decision: are the watched areas present in the HTML the server
 * sends, with the same text as the browser rendered? Texts are compared with all whitespace
 * collapsed, since line breaks differ between innerText and HTTP mode's approximation. Areas
 * inside iframes need the frame's own HTML, which only a fetch can give: they count as absent.
 */
export function compareServedHtml(html: string, areas: readonly AreaAsSeen[]): ServedHtmlComparison {
  const page = new ParsedPage(html);
  const compared = areas.map((area) => {
    if (area.frame) return { areaId: area.areaId, found: false, sameText: false };
    let text: string | undefined;
    try {
      text = page.locate(pageLocator(area))?.text;
    } catch (error) {
      if (!(error instanceof InvalidSelectorError)) throw error;
    }
    return {
      areaId: area.areaId,
      found: text !== undefined,
      sameText: text !== undefined && collapse(text) === collapse(area.text),
    };
  });
  return { httpSuffices: compared.length > 0 && compared.every((area) => area.sameText), areas: compared };
}

const collapse = (text: string) => text.replace(/\s+/g, ' ').trim();
