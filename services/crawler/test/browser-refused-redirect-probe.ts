import { createServer } from 'node:http';
import { createBrowserPageFetcher } from '../src/browser/browser-page-fetcher.ts';
import { createBrowserPool } from '../src/browser/browser-pool.ts';
import { startBrowserFixtureSite } from './browser-fixture-site.ts';

/**
 * Run inside a loopback-only network namespace (see refused-redirect.int.test.ts): the refused
 * addresses are on that namespace's loopback with servers that count what reaches them, so a
 * broken guard shows as a hit instead of a packet leaving the machine. Prints one JSON line.
 */
const targets = ['169.254.169.254', '10.0.0.5'];
let hits = 0;
const traps = await Promise.all(
  targets.flatMap((address) =>
    [80, 443].map(
      (port) =>
        new Promise<ReturnType<typeof createServer>>((resolve) => {
          const trap = createServer((_request, response) => {
            hits++;
            response.end('<div id="secret">instance credentials</div>');
          });
          trap.on('connection', () => {
            hits++;
          });
          trap.listen(port, address, () => resolve(trap));
        }),
    ),
  ),
);

const site = await startBrowserFixtureSite({
  '/to-metadata': (_request, response) =>
    response.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end(),
  '/to-private-https': (_request, response) =>
    response.writeHead(302, { location: 'https://10.0.0.5/' }).end(),
  '/to-metadata-by-name': (_request, response) =>
    response.writeHead(302, { location: 'http://metadata.test/latest/' }).end(),
  '/subresource': (_request, response) =>
    response
      .writeHead(200, { 'content-type': 'text/html' })
      .end(
        '<div id="own">own</div><img src="http://169.254.169.254/pixel.png"><script src="http://10.0.0.5/x.js"></script>',
      ),
});
const pool = createBrowserPool({ allow: [site.authority] });
const fetcher = createBrowserPageFetcher({ pool, attempts: 1, limits: { loadTimeoutMs: 10_000 } });
const results: Record<string, unknown> = {};
for (const path of ['/to-metadata', '/to-private-https', '/to-metadata-by-name', '/subresource']) {
  results[path] = await fetcher.fetch(
    {
      url: `${site.origin}${path}`,
      mode: 'browser',
      userAgent: { kind: 'none' },
      actions: [],
      areas: path === '/subresource' ? [{ areaId: 'own', selector: '#own', selectorType: 'css' }] : [],
      screenshot: path === '/subresource' ? 'page' : 'none',
    },
    new AbortController().signal,
  );
}
await fetcher.close();
await site.close();
for (const trap of traps) trap.close();
console.log(JSON.stringify({ results, hits }));
