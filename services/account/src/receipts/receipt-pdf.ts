import { existsSync, readFileSync } from 'node:fs';
import PDFDocument from 'pdfkit';
import type { ReceiptRenderer } from '../domain/invoices/invoice-ports.ts';
import type { Receipt } from '../domain/invoices/receipt.ts';

/** Debian's fonts-noto-cjk (scripts/debian-packages.sh, the service image): Japanese and Latin in one face. */
export const DEFAULT_RECEIPT_FONT = '/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc';
/** The Japanese face inside the collection; the others draw kanji in Chinese or Korean forms. */
const FACE_IN_COLLECTION = 'NotoSansCJKjp-Regular';

export class ReceiptFontMissing extends Error {
  constructor(path: string) {
    super(
      `RECEIPT_FONT_PATH: no font at ${path}. Receipts are drawn with Noto Sans CJK: install Debian's ` +
        'fonts-noto-cjk (scripts/debian-packages.sh fonts-noto-cjk) or point RECEIPT_FONT_PATH at a ' +
        'Noto Sans CJK .ttc or a Japanese .otf/.ttf.',
    );
    this.name = 'ReceiptFontMissing';
  }
}

/**
 * Draws receipts as A4 PDFs with the CJK font embedded (only the glyphs used), so they print the
 * same everywhere. Refuses to start without the font: a receipt in a fallback font would lose
 * every Japanese character, so the service says so at start instead of at the first download.
 */
export function receiptPdfRenderer(fontPath: string = DEFAULT_RECEIPT_FONT): ReceiptRenderer {
  if (!existsSync(fontPath)) throw new ReceiptFontMissing(fontPath);
  const family = fontPath.endsWith('.ttc') ? FACE_IN_COLLECTION : undefined;
  // Read once: the collection is 19 MB, and reading it again for every receipt doubled its time.
  const font = readFileSync(fontPath);
  return (receipt) => draw(receipt, font, family);
}

const MARGIN = 56;
const WIDTH = 595.28 - 2 * MARGIN;
const INK = '#1f2933';
const MUTED = '#52606d';
const RULE = '#9aa5b1';

function draw(receipt: Receipt, font: Buffer, family: string | undefined): Promise<Uint8Array> {
  const doc = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    info: { Title: receipt.title, Author: 'Mimamori' },
    lang: receipt.lang,
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Uint8Array>((resolve, reject) => {
    doc.on('end', () => resolve(new Uint8Array(Buffer.concat(chunks))));
    doc.on('error', reject);
  });
  doc.registerFont('receipt', font, family);
  doc.font('receipt').fillColor(INK);

  doc.fontSize(20).text(receipt.title, { align: 'left' });
  doc.moveDown(0.2).fontSize(11).fillColor(MUTED).text(receipt.statusLine).fillColor(INK);
  doc.moveDown(1);

  for (const field of receipt.fields) {
    const y = doc.y;
    doc.fontSize(10).fillColor(MUTED).text(field.label, MARGIN, y, { width: 150 });
    doc
      .fillColor(INK)
      .fontSize(11)
      .text(field.value, MARGIN + 150, y, { width: WIDTH - 150 });
    doc.moveDown(0.4);
  }
  doc.moveDown(0.8);

  table(doc, receipt.lineHeader, receipt.lines, [0.5, 0.3, 0.2]);
  doc.moveDown(0.8);
  table(doc, receipt.rateHeader, receipt.rates, [0.4, 0.3, 0.3]);
  doc.moveDown(0.8);

  const y = doc.y;
  doc.fontSize(13).text(receipt.totalLabel, MARGIN, y, { width: WIDTH * 0.6 });
  doc.text(receipt.total, MARGIN + WIDTH * 0.6, y, { width: WIDTH * 0.4, align: 'right' });
  doc.moveDown(1.5);
  doc.fontSize(9).fillColor(MUTED);
  for (const note of receipt.notes) doc.text(note, MARGIN, doc.y, { width: WIDTH }).moveDown(0.3);
  doc.end();
  return done;
}

function table(doc: PDFKit.PDFDocument, header: string[], rows: string[][], shares: number[]): void {
  const xs = shares.map((_, i) => MARGIN + shares.slice(0, i).reduce((sum, share) => sum + share, 0) * WIDTH);
  const row = (cells: string[], size: number, color: string) => {
    const y = doc.y;
    let bottom = y;
    cells.forEach((cell, i) => {
      const last = i === cells.length - 1;
      doc
        .fontSize(size)
        .fillColor(color)
        .text(cell, xs[i] as number, y, {
          width: (shares[i] as number) * WIDTH - 6,
          align: last ? 'right' : 'left',
        });
      bottom = Math.max(bottom, doc.y);
    });
    doc.y = bottom + 4;
  };
  row(header, 9, MUTED);
  doc
    .moveTo(MARGIN, doc.y - 2)
    .lineTo(MARGIN + WIDTH, doc.y - 2)
    .strokeColor(RULE)
    .lineWidth(0.5)
    .stroke();
  for (const cells of rows) row(cells, 10, INK);
  doc.x = MARGIN;
}
