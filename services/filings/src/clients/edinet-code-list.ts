import { unzipSync } from 'fflate';
import { SourceError } from '../domain/filing.ts';
import { getFromSource, type SourceHttp } from './source-http.ts';

export interface EdinetFiler {
  edinetCode: string;
  /** 4 characters as TDnet shows it (7203, 130A); empty for an unlisted filer. */
  tdnetCode: string;
  name: string;
  nameEn: string;
  nameKana: string;
}

const CSV_NAME = 'EdinetcodeDlInfo.csv';

/**
 * EDINET's code list: a ZIP holding EdinetcodeDlInfo.csv in CP932, a metadata line, a header
 * (its first name written in full-width letters), then one filer a row: code, type, listing,
 * consolidation, capital, year end, name, English name, kana reading, address, industry,
 * 5-character securities code, corporate number.
 */
export async function fetchEdinetCodeList(http: SourceHttp, url: string): Promise<EdinetFiler[]> {
  const response = await getFromSource(http, new URL(url));
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(response.body);
  } catch {
    throw new SourceError('edinet', 'bad_answer', 'the code list is not a ZIP');
  }
  const csv = Object.entries(files).find(([name]) => name.endsWith(CSV_NAME))?.[1];
  if (!csv) throw new SourceError('edinet', 'bad_answer', `the code list ZIP has no ${CSV_NAME}`);
  return parseEdinetCodeList(new TextDecoder('shift_jis').decode(csv));
}

export function parseEdinetCodeList(text: string): EdinetFiler[] {
  const lines = text.split(/\r?\n/).filter((line) => line.trim() !== '');
  const header = csvFields(lines[1] ?? '');
  if (header[0]?.normalize('NFKC') !== 'EDINETコード')
    throw new SourceError('edinet', 'bad_answer', 'the code list has no header on its second line');
  const filers: EdinetFiler[] = [];
  for (const line of lines.slice(2)) {
    const fields = csvFields(line);
    const edinetCode = fields[0] ?? '';
    if (!/^E\d{5}$/.test(edinetCode)) continue;
    filers.push({
      edinetCode,
      tdnetCode: (fields[11] ?? '').slice(0, 4),
      name: fields[6] ?? '',
      nameEn: fields[7] ?? '',
      nameKana: fields[8] ?? '',
    });
  }
  return filers;
}

/** One CSV line: fields in double quotes may hold commas and doubled quotes. */
function csvFields(line: string): string[] {
  const fields: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const char = line[i];
    if (quoted) {
      if (char === '"' && line[i + 1] === '"') {
        field += '"';
        i++;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      fields.push(field);
      field = '';
    } else field += char;
  }
  fields.push(field);
  return fields.map((value) => value.trim());
}
