import type { SourceName } from '../domain/filing.ts';

/** A filing the demo replays in turn, of the kind the source's recorded answers carry (test/fixtures). */
export interface DemoFilingTemplate {
  source: SourceName;
  title: string;
}

/** A company of the bundled demo set, with the codes its sources know it by. */
export interface DemoCompany {
  /** The name the Japanese directory or the SEC gives. */
  name: string;
  nameEn: string;
  nameKana: string;
  edinetCode: string;
  tdnetCode: string;
  cik: string;
  ticker: string;
  /** What GlobeNewswire releases name it by. */
  isin: string;
  /** Replayed one per demo period, in this order, round and round. */
  filings: readonly DemoFilingTemplate[];
}

/**
 * The demo set: real companies under their real codes, so a follow made while trying the demo
 * stays meaningful once real sources are on, with filing titles taken from the recorded TDnet,
 * EDINET, SEC and GlobeNewswire answers the tests replay. Kept small on purpose: it is for trying
 * follow → notice, not a directory.
 */
export const DEMO_COMPANIES: readonly DemoCompany[] = [
  {
    name: 'トヨタ自動車株式会社',
    nameEn: 'TOYOTA MOTOR CORPORATION',
    nameKana: 'トヨタジドウシャカブシキガイシャ',
    edinetCode: 'E02144',
    tdnetCode: '7203',
    cik: '',
    ticker: '',
    isin: 'JP3633400001',
    filings: [
      { source: 'tdnet', title: '2027年3月期 第1四半期決算短信〔IFRS〕（連結）' },
      { source: 'edinet', title: '有価証券報告書－第122期(2025/04/01－2026/03/31)' },
      { source: 'globenewswire', title: 'Toyota announces first-quarter results' },
      { source: 'tdnet', title: '剰余金の配当に関するお知らせ' },
      { source: 'edinet', title: '臨時報告書' },
    ],
  },
  {
    name: 'ソニーグループ株式会社',
    nameEn: 'Sony Group Corporation',
    nameKana: 'ソニーグループカブシキガイシャ',
    edinetCode: 'E01777',
    tdnetCode: '6758',
    cik: '',
    ticker: '',
    isin: 'JP3435000009',
    filings: [
      { source: 'tdnet', title: '自己株式の取得状況に関するお知らせ' },
      { source: 'edinet', title: '臨時報告書' },
      { source: 'globenewswire', title: 'Sony Group reports its share repurchase status' },
    ],
  },
  {
    name: 'Apple Inc.',
    nameEn: 'Apple Inc.',
    nameKana: '',
    edinetCode: '',
    tdnetCode: '',
    cik: '320193',
    ticker: 'AAPL',
    isin: 'US0378331005',
    filings: [
      { source: 'sec', title: '8-K' },
      { source: 'globenewswire', title: 'Apple announces results' },
      { source: 'sec', title: '10-Q' },
      { source: 'sec', title: '10-K' },
    ],
  },
  {
    name: 'MICROSOFT CORP',
    nameEn: 'MICROSOFT CORP',
    nameKana: '',
    edinetCode: '',
    tdnetCode: '',
    cik: '789019',
    ticker: 'MSFT',
    isin: 'US5949181045',
    filings: [
      { source: 'sec', title: '8-K' },
      { source: 'sec', title: '10-Q' },
    ],
  },
];
