import { parseAllDocuments } from 'yaml';
import { LABEL_MAX_LENGTH, targetUrl } from './target-url.ts';

export type ImportFormat = 'list' | 'csv' | 'yaml';

export interface ImportedTarget {
  line: number;
  url: string;
  label: string;
}

export interface ImportProblem {
  line: number;
  code: 'url_invalid' | 'duplicate' | 'unsupported_job' | 'label_too_long' | 'syntax_error' | 'too_many';
  text: string;
}

export interface ImportReading {
  format: ImportFormat;
  sites: ImportedTarget[];
  problems: ImportProblem[];
}

/** One import reads at most this many sites; the rest are reported. */
export const IMPORT_MAX_SITES = 1_000;

/**
 * Reads a URL list as a plain list (one URL a line, `#` comments), CSV (url and an optional
 * label, in either column, with an optional header), or urlwatch's urls.yaml (YAML documents
 * with `url` and `name`; `command` jobs cannot be watched here). Bad lines are reported, not
 * fatal; a URL given twice is kept once.
 */
export function readUrlList(text: string, format: ImportFormat | '' = ''): ImportReading {
  const chosen = format || detectFormat(text);
  const reading = chosen === 'yaml' ? readYaml(text) : chosen === 'csv' ? readCsv(text) : readList(text);
  return { format: chosen, ...dropDuplicates(reading) };
}

export function detectFormat(text: string): ImportFormat {
  if (/^(?:---\s*$|(?:url|name|kind|command|navigate)\s*:)/m.test(text)) return 'yaml';
  const lines = meaningfulLines(text);
  if (lines.some(({ content }) => content.includes(','))) return 'csv';
  return 'list';
}

type Reading = Omit<ImportReading, 'format'>;

function readList(text: string): Reading {
  const reading: Reading = { sites: [], problems: [] };
  for (const { line, content } of meaningfulLines(text)) add(reading, line, content, '');
  return reading;
}

function readCsv(text: string): Reading {
  const reading: Reading = { sites: [], problems: [] };
  let urlColumn: number | null = null;
  let labelColumn: number | null = null;
  for (const [index, { line, content }] of meaningfulLines(text).entries()) {
    const cells = csvCells(content);
    if (!cells) {
      reading.problems.push({ line, code: 'syntax_error', text: content });
      continue;
    }
    const lower = cells.map((cell) => cell.trim().toLowerCase());
    if (index === 0 && lower.includes('url')) {
      urlColumn = lower.indexOf('url');
      const label = lower.findIndex((cell) => cell === 'label' || cell === 'name' || cell === 'title');
      labelColumn = label >= 0 ? label : null;
      continue;
    }
    // Without a header the URL is whichever cell looks like one, and the label the other.
    const urlAt =
      urlColumn ??
      Math.max(
        0,
        cells.findIndex((cell) => /^\s*https?:\/\//i.test(cell)),
      );
    const labelAt = urlColumn === null ? cells.findIndex((_, at) => at !== urlAt) : labelColumn;
    add(reading, line, cells[urlAt] ?? '', labelAt !== null && labelAt >= 0 ? (cells[labelAt] ?? '') : '');
  }
  return reading;
}

function readYaml(text: string): Reading {
  const reading: Reading = { sites: [], problems: [] };
  const lineOf = lineStarts(text);
  for (const document of parseAllDocuments(text)) {
    // A document's own range starts at its `---`; its content's at the job's first key.
    const line = lineOf(document.contents?.range?.[0] ?? document.range[0]);
    if (document.errors.length > 0) {
      reading.problems.push({ line, code: 'syntax_error', text: document.errors[0]?.message ?? '' });
      continue;
    }
    const job: unknown = document.toJS();
    if (job === null || job === undefined) continue;
    if (typeof job !== 'object' || Array.isArray(job)) {
      reading.problems.push({ line, code: 'syntax_error', text: String(job) });
      continue;
    }
    const { url, navigate, name, command } = job as Record<string, unknown>;
    const address = typeof url === 'string' ? url : typeof navigate === 'string' ? navigate : null;
    if (address === null) {
      const shown = typeof command === 'string' ? command : JSON.stringify(job);
      reading.problems.push({ line, code: 'unsupported_job', text: shown.slice(0, 200) });
      continue;
    }
    add(reading, line, address, typeof name === 'string' ? name : '');
  }
  return reading;
}

function add(reading: Reading, line: number, rawUrl: string, rawLabel: string): void {
  const url = targetUrl(rawUrl);
  const label = rawLabel.trim();
  if (!url) reading.problems.push({ line, code: 'url_invalid', text: rawUrl.slice(0, 200) });
  else if (label.length > LABEL_MAX_LENGTH)
    reading.problems.push({ line, code: 'label_too_long', text: label.slice(0, 200) });
  else if (reading.sites.length >= IMPORT_MAX_SITES)
    reading.problems.push({ line, code: 'too_many', text: url });
  else reading.sites.push({ line, url, label });
}

function dropDuplicates(reading: Reading): Reading {
  const seen = new Set<string>();
  const sites: ImportedTarget[] = [];
  const problems = [...reading.problems];
  for (const site of reading.sites) {
    if (seen.has(site.url)) problems.push({ line: site.line, code: 'duplicate', text: site.url });
    else {
      seen.add(site.url);
      sites.push(site);
    }
  }
  problems.sort((a, b) => a.line - b.line);
  return { sites, problems };
}

function meaningfulLines(text: string): { line: number; content: string }[] {
  return text
    .split(/\r?\n/)
    .map((content, index) => ({ line: index + 1, content: content.trim() }))
    .filter(({ content }) => content !== '' && !content.startsWith('#'));
}

/** One CSV record on one line (RFC 4180 quoting); null when a quote is left open. */
function csvCells(content: string): string[] | null {
  const cells: string[] = [];
  let cell = '';
  let quoted = false;
  for (let at = 0; at < content.length; at++) {
    const char = content[at];
    if (quoted) {
      if (char === '"' && content[at + 1] === '"') {
        cell += '"';
        at++;
      } else if (char === '"') quoted = false;
      else cell += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      cells.push(cell);
      cell = '';
    } else cell += char;
  }
  if (quoted) return null;
  cells.push(cell);
  return cells.map((value) => value.trim());
}

function lineStarts(text: string): (offset: number) => number {
  const starts = [0];
  for (let at = 0; at < text.length; at++) if (text[at] === '\n') starts.push(at + 1);
  return (offset) => {
    let line = 0;
    while (line + 1 < starts.length && (starts[line + 1] ?? Infinity) <= offset) line++;
    return line + 1;
  };
}
