import { migrate, openPostgres } from '@mimamori/db';
import {
  createCompanyDirectory,
  createFilingsStore,
  FILINGS_SCHEMA,
  filingsMigrations,
  type JapaneseCompanyRow,
  type SecCompanyRow,
  searchKey,
} from '@mimamori/filings';
import { createLogger } from '@mimamori/runtime';
import { createFreshDatabase } from '../packages/test-fixtures/src/fresh-database.ts';
import { testDatabaseUrl } from '../packages/test-fixtures/src/server-urls.ts';
import { percentile, report } from './report.ts';

// Filings directory search: a full-size directory (11,000 EDINET filers, 10,000 SEC tickers,
// generated) written to PostgreSQL, loaded into the service's trigram index, then searched with
// the queries the dashboard sends (names in kanji, kana readings typed in hiragana, English
// words, codes, tickers; full-width forms among them). Baseline: a naive scan that folds and
// compares every company's names on each query.

const JAPANESE = 11_000;
const SEC = 10_000;
const QUERIES = 2_000;

const KANJI = [
  '東',
  '日本',
  '大',
  '北',
  '中央',
  '富士',
  '三',
  '新',
  '山',
  '京',
  '和',
  '光',
  '明',
  '昭',
  '栄',
  '豊',
  '西',
  '南',
  '国際',
  '太平',
];
const KANJI_READ = [
  'トウ',
  'ニホン',
  'ダイ',
  'ホク',
  'チュウオウ',
  'フジ',
  'サン',
  'シン',
  'ヤマ',
  'キョウ',
  'ワ',
  'コウ',
  'メイ',
  'ショウ',
  'エイ',
  'ホウ',
  'セイ',
  'ナン',
  'コクサイ',
  'タイヘイ',
];
const TRADE = [
  '電機',
  '化学',
  '製薬',
  '商事',
  '建設',
  '運輸',
  '食品',
  '銀行',
  '証券',
  '不動産',
  '電力',
  'ガス',
  '鉄鋼',
  '繊維',
  '工業',
  '自動車',
  '通信',
  '物産',
  '精機',
  '産業',
];
const TRADE_READ = [
  'デンキ',
  'カガク',
  'セイヤク',
  'ショウジ',
  'ケンセツ',
  'ウンユ',
  'ショクヒン',
  'ギンコウ',
  'ショウケン',
  'フドウサン',
  'デンリョク',
  'ガス',
  'テッコウ',
  'センイ',
  'コウギョウ',
  'ジドウシャ',
  'ツウシン',
  'ブッサン',
  'セイキ',
  'サンギョウ',
];
const TRADE_EN = [
  'ELECTRIC',
  'CHEMICAL',
  'PHARMACEUTICAL',
  'TRADING',
  'CONSTRUCTION',
  'TRANSPORT',
  'FOODS',
  'BANK',
  'SECURITIES',
  'REALTY',
  'POWER',
  'GAS',
  'STEEL',
  'TEXTILE',
  'INDUSTRIES',
  'MOTOR',
  'TELECOM',
  'BUSSAN',
  'PRECISION',
  'SANGYO',
];
const WORDS = [
  'Acme',
  'Global',
  'Pacific',
  'Atlantic',
  'Summit',
  'Pioneer',
  'Liberty',
  'Quantum',
  'Vertex',
  'Harbor',
  'Sterling',
  'Crescent',
  'Evergreen',
  'Frontier',
  'Granite',
  'Horizon',
  'Keystone',
  'Meridian',
  'Northern',
  'Orion',
];
const KIND = [
  'Holdings',
  'Technologies',
  'Bancorp',
  'Therapeutics',
  'Energy',
  'Capital',
  'Systems',
  'Brands',
  'Partners',
  'Industries',
];

function japaneseDirectory(): JapaneseCompanyRow[] {
  const rows: JapaneseCompanyRow[] = [];
  for (let i = 0; i < JAPANESE; i++) {
    const [a, b, t] = [i % 20, Math.floor(i / 20) % 20, Math.floor(i / 400) % 20];
    const suffix = Math.floor(i / 8_000) > 0 ? `第${Math.floor(i / 8_000)}` : '';
    const listed = i % 3 !== 0;
    rows.push({
      edinetCode: `E${String(10_000 + i).padStart(5, '0')}`,
      tdnetCode: listed ? String(1_300 + i).slice(0, 4) : '',
      name: `${KANJI[a]}${KANJI[b]}${TRADE[t]}${suffix}株式会社`,
      nameEn: `${KANJI_READ[a]}${KANJI_READ[b]} ${TRADE_EN[t]} CO., LTD.`.replace(
        /[ァ-ヶ]+/g,
        (kana) => `K${kana.length}`,
      ),
      nameKana: `${KANJI_READ[a]}${KANJI_READ[b]}${TRADE_READ[t]}カブシキガイシャ`,
    });
  }
  return rows;
}

function secDirectory(): SecCompanyRow[] {
  const rows: SecCompanyRow[] = [];
  for (let i = 0; i < SEC; i++) {
    const [a, b, k] = [i % 20, Math.floor(i / 20) % 20, Math.floor(i / 400) % 10];
    rows.push({
      cik: String(1_000_000 + i * 37),
      ticker: `${String.fromCharCode(65 + (i % 26))}${String.fromCharCode(65 + (Math.floor(i / 26) % 26))}${String.fromCharCode(65 + (Math.floor(i / 676) % 26))}${i >= 17_576 ? 'X' : ''}`,
      name: `${WORDS[a]} ${WORDS[b]} ${KIND[k]} ${i % 2 ? 'Inc.' : 'Corp'}`,
    });
  }
  return rows;
}

const toHiragana = (text: string) =>
  text.replace(/[ァ-ヶ]/g, (char) => String.fromCharCode(char.charCodeAt(0) - 0x60));
const toFullWidth = (text: string) =>
  text.replace(/[!-~]/g, (char) => String.fromCharCode(char.charCodeAt(0) + 0xfee0));

/** What people type: kanji name parts, readings in hiragana, English words, codes, tickers, CIKs. */
function queries(
  japanese: JapaneseCompanyRow[],
  sec: SecCompanyRow[],
): { kind: 'ja' | 'sec'; text: string }[] {
  const list: { kind: 'ja' | 'sec'; text: string }[] = [];
  for (let i = 0; list.length < QUERIES; i++) {
    const ja = japanese[(i * 7_919) % japanese.length] as JapaneseCompanyRow;
    const us = sec[(i * 104_729) % sec.length] as SecCompanyRow;
    const forms: { kind: 'ja' | 'sec'; text: string }[] = [
      { kind: 'ja', text: ja.name.slice(0, 4) },
      { kind: 'ja', text: toHiragana(ja.nameKana.slice(2, 8)) },
      { kind: 'ja', text: ja.edinetCode },
      { kind: 'ja', text: toFullWidth(ja.tdnetCode || ja.edinetCode) },
      { kind: 'ja', text: 'electric' },
      { kind: 'sec', text: us.name.split(' ')[0] ?? '' },
      { kind: 'sec', text: us.ticker.toLowerCase() },
      { kind: 'sec', text: us.cik.padStart(10, '0') },
      { kind: 'sec', text: toFullWidth(us.name.split(' ')[1] ?? '') },
      { kind: 'sec', text: 'hol' },
    ];
    list.push(forms[i % forms.length] as { kind: 'ja' | 'sec'; text: string });
  }
  return list;
}

function timeMs<T>(run: () => T): [number, T] {
  const start = process.hrtime.bigint();
  const result = run();
  return [Number(process.hrtime.bigint() - start) / 1e6, result];
}

const database = await createFreshDatabase(process.env.DATABASE_URL ?? testDatabaseUrl());
const db = openPostgres(database.url);
try {
  await migrate(db, FILINGS_SCHEMA, filingsMigrations);
  const store = createFilingsStore(db);
  const japanese = japaneseDirectory();
  const sec = secDirectory();
  const at = new Date();
  const startedWrite = Date.now();
  await store.replaceJapaneseDirectory(japanese, at);
  await store.replaceSecDirectory(sec, at);
  const refreshMs = Date.now() - startedWrite;
  const directory = createCompanyDirectory(store, {}, createLogger({ service: 'bench', level: 'silent' }));
  const startedLoad = Date.now();
  await directory.load();
  const loadMs = Date.now() - startedLoad;

  // The baseline: every query folds and compares each company's names in turn.
  const naive = <Row>(rows: readonly Row[], names: (row: Row) => string[], query: string) =>
    rows.filter((row) => names(row).some((name) => searchKey(name).includes(query))).slice(0, 20);
  const jaNames = (row: JapaneseCompanyRow) => [
    row.edinetCode,
    row.tdnetCode,
    row.name,
    row.nameEn,
    row.nameKana,
  ];
  const secNames = (row: SecCompanyRow) => [row.cik, row.cik.padStart(10, '0'), row.ticker, row.name];

  const list = queries(japanese, sec);
  const indexed: number[] = [];
  const scanned: number[] = [];
  let hits = 0;
  let mismatches = 0;
  for (const [round, { kind, text }] of [...list, ...list.slice(0, 200)].entries()) {
    const query = searchKey(text);
    const [indexMs, found] = timeMs(() =>
      kind === 'ja' ? directory.searchJapanese(query) : directory.searchSec(query),
    );
    const [scanMs, scan] = timeMs(() =>
      kind === 'ja' ? naive(japanese, jaNames, query) : naive(sec, secNames, query),
    );
    // The first 200 are warm-up; both answer the same companies (the index ranks them).
    if (round < 200) continue;
    indexed.push(indexMs);
    scanned.push(scanMs);
    if (found.length > 0) hits++;
    if (found.length !== scan.length) mismatches++;
  }
  const rows = [
    {
      search: 'trigram index',
      p50_ms: percentile(indexed, 0.5),
      p99_ms: percentile(indexed, 0.99),
      max_ms: Math.max(...indexed),
    },
    {
      search: 'naive scan (baseline)',
      p50_ms: percentile(scanned, 0.5),
      p99_ms: percentile(scanned, 0.99),
      max_ms: Math.max(...scanned),
    },
  ].map((row) => ({
    ...row,
    p50_ms: Number(row.p50_ms.toFixed(3)),
    p99_ms: Number(row.p99_ms.toFixed(3)),
    max_ms: Number(row.max_ms.toFixed(3)),
  }));
  report(
    `Filings directory search: ${JAPANESE} EDINET filers + ${SEC} SEC tickers, ${indexed.length} queries (${hits} with hits)`,
    rows,
    {
      bench: 'filings-search',
      companies: JAPANESE + SEC,
      queries: indexed.length,
      queries_with_hits: hits,
      answers_differing_from_scan: mismatches,
      index_p50_ms: rows[0]?.p50_ms,
      index_p99_ms: rows[0]?.p99_ms,
      scan_p50_ms: rows[1]?.p50_ms,
      scan_p99_ms: rows[1]?.p99_ms,
      p99_speedup: Number(((rows[1]?.p99_ms ?? 0) / (rows[0]?.p99_ms || 1)).toFixed(1)),
      directory_write_ms: refreshMs,
      directory_load_and_index_ms: loadMs,
      target_p99_ms: 100,
    },
  );
} finally {
  await db.close();
  await database.drop();
}
