/*
 * The demo shop's prices and stock, a pure function of the turn: half of the product's minute.
 * The visitor's browser and the crawler's browser compute the same figures at the same moment.
 * Checks a minute apart read pages up to half a minute late (a first check waits for the site's
 * start to reach the scheduler and for a cold browser, docs/product.md#checks) and still fall in
 * different turns, so each sees a new price: a turn of a whole minute let two such reads share
 * one, and the tour's first update then waited for the site's interval.
 */

export type ProductId = 'tea' | 'mug' | 'earbuds' | 'backpack';
export type StockStatus = 'inStock' | 'fewLeft' | 'soldOut';

export type ShopProduct = { id: ProductId; basePrice: number };

export const shopProducts: readonly ShopProduct[] = [
  { id: 'tea', basePrice: 1480 },
  { id: 'mug', basePrice: 2800 },
  { id: 'earbuds', basePrice: 8980 },
  { id: 'backpack', basePrice: 12800 },
];

/**
 * Each product walks through this many distinct price levels in its own shuffled order, one per
 * turn. Distinct levels mean a price never equals the one a turn, or any turn within the cycle
 * (a quarter of an hour), before: a check always sees an update, never one the "same as a past
 * update" option would swallow.
 */
const PRICE_LEVELS = 30;
/** Stock changes every three minutes. */
const STOCK_TURNS = 6;

/**
 * The product's minute in real time, which the gateway writes into the page it serves: 60,000 ms,
 * shorter only where tests pass the product's time faster (MIMAMORI_TIME_SCALE), so the shop
 * keeps pace with their scaled checks.
 */
export const REAL_MINUTE_MS = 60_000;

/** How long one turn lasts: half the product's minute. */
export function turnMs(minuteMs = REAL_MINUTE_MS): number {
  return minuteMs / 2;
}

/** Whole turns since the epoch: the bucket every figure is derived from. */
export function turnOf(time: number, minuteMs = REAL_MINUTE_MS): number {
  return Math.floor(time / turnMs(minuteMs));
}

/** When the figures next change, for the page's timer. */
export function nextTurnStart(time: number, minuteMs = REAL_MINUTE_MS): number {
  return (turnOf(time, minuteMs) + 1) * turnMs(minuteMs);
}

export function priceAt(product: ShopProduct, turn: number): number {
  const order = levelOrder(product.id);
  const level = order[turn % PRICE_LEVELS] ?? 0;
  // About 1 % of the price per level, in whole tens of yen, around the base price.
  const step = Math.max(10, Math.round(product.basePrice / 1000) * 10);
  return product.basePrice + (level - PRICE_LEVELS / 2) * step;
}

export function stockAt(product: ShopProduct, turn: number): StockStatus {
  const roll = mulberry32(seedOf(`${product.id}:${Math.floor(turn / STOCK_TURNS)}`))();
  if (roll < 0.15) return 'soldOut';
  if (roll < 0.45) return 'fewLeft';
  return 'inStock';
}

/** The same digits in every language, so a Japanese and an English visitor see one text. */
export function formatYen(price: number): string {
  return `¥${price.toLocaleString('en-US')}`;
}

const orders = new Map<ProductId, number[]>();

/** A seeded Fisher–Yates shuffle of the levels, fixed per product. */
function levelOrder(id: ProductId): number[] {
  const known = orders.get(id);
  if (known) return known;
  const random = mulberry32(seedOf(id));
  const order = Array.from({ length: PRICE_LEVELS }, (_, level) => level);
  for (let index = order.length - 1; index > 0; index--) {
    const other = Math.floor(random() * (index + 1));
    [order[index], order[other]] = [order[other] ?? 0, order[index] ?? 0];
  }
  orders.set(id, order);
  return order;
}

/** FNV-1a: a stable 32-bit seed from a text. */
function seedOf(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** A small seeded generator: the same seed gives the same numbers in every browser. */
function mulberry32(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let value = Math.imul(state ^ (state >>> 15), 1 | state);
    value = (value + Math.imul(value ^ (value >>> 7), 61 | value)) ^ value;
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}
