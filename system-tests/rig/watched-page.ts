import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface WatchedPage {
  /** host:port, for CRAWLER_ALLOW. */
  host: string;
  url(path: string): string;
  /** Sets the price shown on one page (every page starts at ¥1,200). */
  setPrice(path: string, price: string): void;
  /** Serves one page without its price element (a check of it fails: element not found), or with it again. */
  setBroken(path: string, broken: boolean): void;
  /** How many times each path was loaded. */
  loads(path: string): number;
  close(): Promise<void>;
}

/** A shop page on loopback whose price the test changes, counting each load per path. */
export async function startWatchedPage(): Promise<WatchedPage> {
  const prices = new Map<string, string>();
  const counts = new Map<string, number>();
  const broken = new Set<string>();
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://page').pathname;
    if (path === '/favicon.ico') {
      response.writeHead(404).end();
      return;
    }
    counts.set(path, (counts.get(path) ?? 0) + 1);
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    response.end(
      `<!doctype html><html><head><title>Sale</title></head><body style="background:#fff">` +
        `<h1>Sale</h1>${
          broken.has(path)
            ? '<p>Closed for stocktaking</p>'
            : `<p id="price" style="font-size:48px;color:#c00">${prices.get(path) ?? '¥1,200'}</p>`
        }</body></html>`,
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    host: `127.0.0.1:${port}`,
    url: (path) => `http://127.0.0.1:${port}${path}`,
    setPrice(path, price) {
      prices.set(path, price);
    },
    setBroken(path, isBroken) {
      if (isBroken) broken.add(path);
      else broken.delete(path);
    },
    loads: (path) => counts.get(path) ?? 0,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
