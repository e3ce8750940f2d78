import { getDocumentProxy } from 'unpdf';

/** One PDF page's text: its lines in reading order, grouped into paragraphs. */
export interface PdfPage {
  lines: string[];
  paragraphs: string[][];
}

/** A PDF that pdf.js cannot open (broken, encrypted): the check reads nothing from it. */
export class UnreadablePdfError extends Error {
  override readonly name = 'UnreadablePdfError';
}

/**
 * The text of each page with pdf.js (through unpdf's serverless build: no native code, no
 * download; this pdf.js has no eval path left). Font loading is off: only the text is read. A line is a
 * run of text items until pdf.js marks an end of line; a paragraph is a run of lines each within
 * 1.8 line heights of the one before (a wider gap, as between paragraphs and headings, or a new
 * page starts the next).
 */
export async function pdfPages(bytes: Uint8Array): Promise<PdfPage[]> {
  let document: Awaited<ReturnType<typeof getDocumentProxy>>;
  try {
    // pdf.js takes ownership of (detaches) the buffer it is given: hand it a copy.
    document = await getDocumentProxy(new Uint8Array(bytes), {
      disableFontFace: true,
      useSystemFonts: false,
      stopAtErrors: false,
      // Errors only: pdf.js warns on every oddity of a real-world PDF, to the console.
      verbosity: 0,
    });
  } catch (error) {
    throw new UnreadablePdfError(error instanceof Error ? error.message : String(error));
  }
  try {
    const pages: PdfPage[] = [];
    for (let number = 1; number <= document.numPages; number += 1) {
      const page = await document.getPage(number);
      const content = await page.getTextContent();
      pages.push(pageText(content.items as TextItem[]));
      page.cleanup();
    }
    return pages;
  } finally {
    await document.loadingTask.destroy();
  }
}

interface TextItem {
  str?: string;
  hasEOL?: boolean;
  height?: number;
  transform?: number[];
}

function pageText(items: readonly TextItem[]): PdfPage {
  const built: { text: string; y: number; height: number }[] = [];
  let text = '';
  let y = Number.NaN;
  let height = 0;
  const endLine = () => {
    const line = cleanLine(text);
    if (line !== '') built.push({ text: line, y, height });
    text = '';
    y = Number.NaN;
    height = 0;
  };
  for (const item of items) {
    if (typeof item.str !== 'string') continue;
    if (item.str !== '') {
      if (Number.isNaN(y)) y = item.transform?.[5] ?? 0;
      height = Math.max(height, item.height ?? 0);
      text += item.str;
    }
    if (item.hasEOL) endLine();
  }
  endLine();
  const paragraphs: string[][] = [];
  let previous: (typeof built)[number] | undefined;
  for (const line of built) {
    const gap = previous ? Math.abs(previous.y - line.y) : Number.POSITIVE_INFINITY;
    const lineHeight = Math.max(line.height, previous?.height ?? 0) || 1;
    if (gap > 1.8 * lineHeight) paragraphs.push([line.text]);
    else paragraphs.at(-1)?.push(line.text);
    previous = line;
  }
  return { lines: built.map((line) => line.text), paragraphs };
}

/**
 * Fonts often map CJK characters to their Kangxi radical twins (U+2F00–U+2FDF, U+2E80–U+2EFF):
 * `⾼` for `高`, `⽐` for `比`. They look the same but are other characters, so a search or a rule
 * for 売上高 would never match; they are read as the ideographs they stand for.
 */
function cleanLine(line: string): string {
  return line
    .replace(/[\u2E80-\u2EFF\u2F00-\u2FDF]/g, (radical) => radical.normalize('NFKC'))
    .replace(/\s+/g, ' ')
    .trim();
}
