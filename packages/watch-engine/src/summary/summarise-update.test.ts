import { describe, expect, test } from 'vitest';
import { diffArea } from '../diff/area-diff.ts';
import { summariseArea, summariseUpdate } from './summarise-update.ts';

const COUNTING = { cancelMoves: false, countRemovals: true };
const diff = (before: string[], after: string[]) => diffArea(before, after, COUNTING);

/**
 * The corpus: a page's lines before and after, and the line a Japanese and an English reader get.
 * Pages are Japanese and English shops, IR pages, news lists and notices, as people watch them.
 */
const CORPUS: ReadonlyArray<{ name: string; before: string[]; after: string[]; ja: string; en: string }> = [
  {
    name: 'a yen price falls',
    before: ['価格 ¥1,200'],
    after: ['価格 ¥980'],
    ja: '¥1,200 → ¥980（−18%）',
    en: '¥1,200 → ¥980 (−18 %)',
  },
  {
    name: 'a price in 円 with 税込 rises',
    before: ['販売価格 3,980円(税込)'],
    after: ['販売価格 4,380円(税込)'],
    ja: '3,980円(税込) → 4,380円(税込)（+10%）',
    en: '3,980円(税込) → 4,380円(税込) (+10 %)',
  },
  {
    name: 'a price that gained a word is still a price change',
    before: ['¥1,200'],
    after: ['¥980 sale'],
    ja: '¥1,200 → ¥980（−18%）',
    en: '¥1,200 → ¥980 (−18 %)',
  },
  {
    name: 'a dollar price with cents',
    before: ['Price: $19.99'],
    after: ['Price: $24.99'],
    ja: '$19.99 → $24.99（+25%）',
    en: '$19.99 → $24.99 (+25 %)',
  },
  {
    name: 'full-width digits',
    before: ['参加者 １２０人'],
    after: ['参加者 １５０人'],
    ja: '１２０人 → １５０人（+25%）',
    en: '１２０人 → １５０人 (+25 %)',
  },
  {
    name: 'a small change keeps a decimal',
    before: ['在庫数 1000 個'],
    after: ['在庫数 1003 個'],
    ja: '1000 個 → 1003 個（+0.3%）',
    en: '1000 個 → 1003 個 (+0.3 %)',
  },
  {
    name: 'a count from zero has no percentage',
    before: ['応募 0 件'],
    after: ['応募 12 件'],
    ja: '0 件 → 12 件',
    en: '0 件 → 12 件',
  },
  {
    name: 'two prices change: the first leads',
    before: ['商品A ¥500', '商品B ¥800'],
    after: ['商品A ¥450', '商品B ¥700'],
    ja: '¥500 → ¥450（−10%）、ほか 1 件の変更',
    en: '¥500 → ¥450 (−10 %) and 1 more change',
  },
  {
    name: 'a share price on an IR page',
    before: ['株価 2,345.5 円 前日比 +12.0'],
    after: ['株価 2,301.0 円 前日比 −32.5'],
    ja: '2,345.5 円 → 2,301.0 円（−2%）、ほか 1 件の変更',
    en: '2,345.5 円 → 2,301.0 円 (−2 %) and 1 more change',
  },
  {
    name: 'in stock to sold out (ja)',
    before: ['在庫あり'],
    after: ['売り切れ'],
    ja: '在庫あり → 売り切れ',
    en: '在庫あり → 売り切れ',
  },
  {
    name: 'sold out to in stock in a longer line (ja)',
    before: ['Mサイズ: 品切れ（入荷未定）'],
    after: ['Mサイズ: 在庫あり'],
    ja: '品切れ → 在庫あり',
    en: '品切れ → 在庫あり',
  },
  {
    name: 'stock outweighs a price in the same update',
    before: ['¥2,000', '在庫あり'],
    after: ['¥1,800', '残りわずか'],
    ja: '在庫あり → 残りわずか',
    en: '在庫あり → 残りわずか',
  },
  {
    name: 'in stock to sold out (en)',
    before: ['Availability: In stock'],
    after: ['Availability: Sold out'],
    ja: 'In stock → Sold out',
    en: 'In stock → Sold out',
  },
  {
    name: 'back in stock (en)',
    before: ['Out of stock'],
    after: ['Back in stock'],
    ja: 'Out of stock → Back in stock',
    en: 'Out of stock → Back in stock',
  },
  {
    name: 'a stock word appears where there was none',
    before: ['カラー: ブラック'],
    after: ['カラー: ブラック', '完売しました'],
    ja: '「完売」と表示されました',
    en: 'Now shows “完売”',
  },
  {
    name: 'the same stock state in other words is not a stock change',
    before: ['売り切れ'],
    after: ['在庫切れ'],
    ja: '「売り切れ」→「在庫切れ」',
    en: '“売り切れ” → “在庫切れ”',
  },
  {
    name: 'one news item added (ja)',
    before: ['2026.11.20 決算説明会のお知らせ'],
    after: ['2026.12.01 配当予想の修正に関するお知らせ', '2026.11.20 決算説明会のお知らせ'],
    ja: '1 件追加: 「2026.12.01 配当予想の修正に関するお知らせ」',
    en: '1 added: “2026.12.01 配当予想の修正に関するお知らせ”',
  },
  {
    name: 'three items added: two shown',
    before: ['old item'],
    after: ['New A', 'New B', 'New C', 'old item'],
    ja: '3 件追加: 「New A」「New B」 ほか',
    en: '3 added: “New A”, “New B” and 1 more',
  },
  {
    name: 'items removed',
    before: ['求人: エンジニア', '求人: デザイナー', '求人: 営業'],
    after: ['求人: エンジニア'],
    ja: '2 件削除: 「求人: デザイナー」「求人: 営業」',
    en: '2 removed: “求人: デザイナー”, “求人: 営業”',
  },
  {
    name: 'added and removed together',
    before: ['Talk: Rust in production', 'Talk: Old news'],
    after: ['Talk: Rust in production', 'Talk: Zig at scale, a long and detailed retrospective'],
    ja: '「Old news」→「Zig at scale, a long and deta…」',
    en: '“Old news” → “Zig at scale, a long and deta…”',
  },
  {
    name: 'one word replaced (ja)',
    before: ['受付状況: 受付中'],
    after: ['受付状況: 受付終了'],
    ja: '「受付中」→「受付終了」',
    en: '“受付中” → “受付終了”',
  },
  {
    name: 'a status word replaced (en)',
    before: ['Status: Under review'],
    after: ['Status: Approved'],
    ja: '「Under review」→「Approved」',
    en: '“Under review” → “Approved”',
  },
  {
    name: 'a date replaced is text, not a number change',
    before: ['次回更新日 2026年11月21日'],
    after: ['次回更新日 2026年12月5日'],
    ja: '「11月21日」→「12月5日」',
    en: '“11月21日” → “12月5日”',
  },
  {
    name: 'a long replacement is cut whole characters',
    before: ['お知らせ: 年末年始の営業についてのご案内です。12月28日から1月4日までお休みします。'],
    after: ['お知らせ: 新サービス開始のお知らせです。詳しくは特設ページをご覧ください。'],
    ja: '「年末年始の営業についてのご案内です。12月28日から1月4…」→「新サービス開始のお知らせです。詳しくは特設ページをご覧くだ…」',
    en: '“年末年始の営業についてのご案内です。12月28日から1月4…” → “新サービス開始のお知らせです。詳しくは特設ページをご覧くだ…”',
  },
  {
    name: 'an emoji is never split',
    before: ['今日のおすすめ 🍣'],
    after: ['今日のおすすめ 🍜'],
    ja: '「🍣」→「🍜」',
    en: '“🍣” → “🍜”',
  },
  {
    name: 'a percentage figure',
    before: ['Conversion rate 4.0%'],
    after: ['Conversion rate 5.0%'],
    ja: '4.0% → 5.0%（+25%）',
    en: '4.0% → 5.0% (+25 %)',
  },
  {
    name: 'a negative balance with the triangle mark',
    before: ['営業利益 ▲120 百万円'],
    after: ['営業利益 ▲80 百万円'],
    ja: '▲120 百万円 → ▲80 百万円（+33%）',
    en: '▲120 百万円 → ▲80 百万円 (+33 %)',
  },
  {
    name: 'a point balance in points',
    before: ['保有ポイント 1,500pt'],
    after: ['保有ポイント 1,800pt'],
    ja: '1,500pt → 1,800pt（+20%）',
    en: '1,500pt → 1,800pt (+20 %)',
  },
  {
    name: 'a ranking position',
    before: ['売れ筋ランキング 5位'],
    after: ['売れ筋ランキング 2位'],
    ja: '5位 → 2位',
    en: '5位 → 2位',
  },
  {
    name: 'a euro price',
    before: ['Price: €49.00'],
    after: ['Price: €39.00'],
    ja: '€49.00 → €39.00（−20%）',
    en: '€49.00 → €39.00 (−20 %)',
  },
  {
    name: 'a price in 万円',
    before: ['価格 120万円'],
    after: ['価格 98万円'],
    ja: '120万円 → 98万円（−18%）',
    en: '120万円 → 98万円 (−18 %)',
  },
  {
    name: 'few left (en)',
    before: ['In stock'],
    after: ['Only 3 left'],
    ja: 'In stock → Only 3 left',
    en: 'In stock → Only 3 left',
  },
  {
    name: 'pre-order opens (ja)',
    before: ['近日発売'],
    after: ['予約受付中'],
    ja: '「予約受付中」と表示されました',
    en: 'Now shows “予約受付中”',
  },
  {
    name: 'sold out to pre-order (en)',
    before: ['Sold out'],
    after: ['Pre-order now'],
    ja: 'Sold out → Pre-order',
    en: 'Sold out → Pre-order',
  },
  {
    name: 'a headline replaced (en)',
    before: ['Breaking: Markets open higher'],
    after: ['Breaking: Markets close lower'],
    ja: '「open higher」→「close lower」',
    en: '“open higher” → “close lower”',
  },
  {
    name: 'a notice added to a list (en)',
    before: ['Notice A'],
    after: ['Notice B', 'Notice A'],
    ja: '1 件追加: 「Notice B」',
    en: '1 added: “Notice B”',
  },
  {
    name: 'two job postings removed (en)',
    before: ['Job: Engineer', 'Job: Designer', 'Job: Sales'],
    after: ['Job: Engineer'],
    ja: '2 件削除: 「Job: Designer」「Job: Sales」',
    en: '2 removed: “Job: Designer”, “Job: Sales”',
  },
  {
    name: 'a version number changes',
    before: ['Latest version 2.4.1'],
    after: ['Latest version 2.5.0'],
    ja: '「2.4.1」→「2.5.0」',
    en: '“2.4.1” → “2.5.0”',
  },
  {
    name: 'a count of items in a cart',
    before: ['カート 3 点'],
    after: ['カート 4 点'],
    ja: '3 点 → 4 点（+33%）',
    en: '3 点 → 4 点 (+33 %)',
  },
  {
    name: 'an interest rate',
    before: ['金利 年0.20%'],
    after: ['金利 年0.35%'],
    ja: '0.20% → 0.35%（+75%）',
    en: '0.20% → 0.35% (+75 %)',
  },
  {
    name: 'a changed line among unchanged ones (ja)',
    before: ['営業時間 10:00-19:00', '定休日 水曜日'],
    after: ['営業時間 10:00-19:00', '定休日 木曜日'],
    ja: '「水曜日」→「木曜日」',
    en: '“水曜日” → “木曜日”',
  },
];

describe('the one-line summary: the corpus, line by line', () => {
  for (const { name, before, after, ja, en } of CORPUS) {
    test(`${name} (ja)`, () => expect(summariseArea(diff(before, after), 'ja')).toBe(ja));
    test(`${name} (en)`, () => expect(summariseArea(diff(before, after), 'en')).toBe(en));
  }
});

describe('an update of several areas', () => {
  const price = { name: '価格', diff: diff(['¥1,200'], ['¥980']) };
  const stock = { name: '在庫', diff: diff(['在庫あり'], ['売り切れ']) };
  const same = { name: 'same', diff: diff(['a'], ['a']) };

  test('one changed area is its line alone', () => {
    expect(summariseUpdate([price, same], 'ja')).toBe('¥1,200 → ¥980（−18%）');
  });

  test('several name the first and count the rest', () => {
    expect(summariseUpdate([price, stock], 'ja')).toBe('価格: ¥1,200 → ¥980（−18%）（ほか 1 範囲）');
    expect(summariseUpdate([price, stock], 'en')).toBe('価格: ¥1,200 → ¥980 (−18 %) (+1 more area)');
  });

  test('nothing highlighted still says something', () => {
    expect(summariseUpdate([same], 'ja')).toBe('内容が変わりました');
    expect(summariseUpdate([], 'en')).toBe('The content changed');
  });
});
