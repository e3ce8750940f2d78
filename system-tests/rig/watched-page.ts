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
  /** Answers one page with 500 (a check of it fails: unreachable, which a fetch tries again), or serves it again. */
  setDown(path: string, down: boolean): void;
  /** How many times each path was loaded. */
  loads(path: string): number;
  close(): Promise<void>;
}

/** A shop page on loopback whose price the test changes, counting each load per path. */
export async function startWatchedPage(): Promise<WatchedPage> {
  const prices = new Map<string, string>();
  const counts = new Map<string, number>();
  const broken = new Set<string>();
  const down = new Set<string>();
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://page').pathname;
    if (path === '/favicon.ico') {
      response.writeHead(404).end();
      return;
    }
    counts.set(path, (counts.get(path) ?? 0) + 1);
    if (down.has(path)) {
      response.writeHead(500, { 'content-type': 'text/plain' }).end('Internal Server Error');
      return;
    }
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
    setDown(path, isDown) {
      if (isDown) down.add(path);
      else down.delete(path);
    },
    loads: (path) => counts.get(path) ?? 0,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
