import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Encoding from 'encoding-japanese';
import iconv from 'iconv-lite';

/**
 * A local site for crawler tests, on loopback; tests allow-list its address in the egress
 * guard, and nothing else on loopback is reachable. The HTTP half's pages are here, the browser
 * half's in browser-fixture-site.ts; both are this one type.
 */
export interface FixtureSite {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** `127.0.0.1:<port>`, for the egress allow-list. */
  authority: string;
  /** Requests received, by path, with the headers they carried. */
  requests: { path: string; headers: IncomingMessage['headers'] }[];
  /** How many requests `path` received. */
  hits(path: string): number;
  close(): Promise<void>;
}

/** Serves `route` on a free loopback port, recording each request before it is routed. */
export async function serveFixtureSite(
  route: (path: string, incoming: IncomingMessage, response: ServerResponse) => void,
  /** More for the server than requests (a WebSocket upgrade). */
  setup?: (server: Server) => void,
): Promise<FixtureSite> {
  const requests: FixtureSite['requests'] = [];
  const server = createServer((incoming, response) => {
    const path = new URL(incoming.url ?? '/', 'http://fixture').pathname;
    requests.push({ path, headers: incoming.headers });
    route(path, incoming, response);
  });
  setup?.(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    authority: `127.0.0.1:${port}`,
    requests,
    hits: (path) => requests.filter((request) => request.path === path).length,
    close: () =>
      new Promise<void>((resolve) => {
        // Held-open pages (/slow, /hold-first) would otherwise keep close() waiting.
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export const JAPANESE_NEWS = '新製品「みまもり」を発売しました。価格は１，２８０円です。';

const page = (body: string, head = '') =>
  `<!doctype html><html><head>${head}<title>Fixture</title></head><body>${body}</body></html>`;
const newsPage = (head = '') =>
  page(`<div id="news"><h2>お知らせ</h2><p class="item">${JAPANESE_NEWS}</p></div>`, head);
const jis = (text: string) =>
  Buffer.from(Encoding.convert(Encoding.stringToCode(text), { to: 'JIS', from: 'UNICODE' }) as number[]);

/**
 * The outside world for crawler tests, on loopback: pages in each Japanese encoding, slow,
 * huge, redirecting, failing and robot-walled pages, an iframe, and redirects to addresses the
 * egress guard must refuse (`redirectTargets`).
 */
export async function startFixtureSite(redirectTargets: Record<string, string> = {}): Promise<FixtureSite> {
  const site: FixtureSite = await serveFixtureSite((path, incoming, response) =>
    route(path, incoming, response, redirectTargets, site),
  );
  return site;
}

function route(
  path: string,
  incoming: IncomingMessage,
  response: ServerResponse,
  redirectTargets: Record<string, string>,
  site: FixtureSite,
) {
  const html = (body: string | Buffer, contentType = 'text/html; charset=utf-8', status = 200) => {
    response.writeHead(status, { 'content-type': contentType });
    response.end(body);
  };
  const redirect = (location: string, status = 302) => {
    response.writeHead(status, { location });
    response.end();
  };
  const chain = /^\/redirect\/(\d+)$/.exec(path);
  if (chain) return redirect(Number(chain[1]) > 0 ? `/redirect/${Number(chain[1]) - 1}` : '/static');
  const elsewhere = /^\/redirect-to\/(\w+)$/.exec(path);
  if (elsewhere) return redirect(redirectTargets[elsewhere[1] ?? ''] ?? '/static', 301);
  switch (path) {
    case '/static':
      return html(newsPage('<meta charset="utf-8">'));
    case '/utf8-undeclared':
      return html(Buffer.from(newsPage()), 'text/html');
    case '/sjis':
      return html(iconv.encode(newsPage(), 'cp932'), 'text/html; charset=Shift_JIS');
    case '/sjis-meta':
      return html(
        iconv.encode(
          newsPage('<meta http-equiv="Content-Type" content="text/html; charset=Shift_JIS">'),
          'cp932',
        ),
        'text/html',
      );
    case '/sjis-undeclared':
      return html(iconv.encode(newsPage(), 'cp932'), 'text/html');
    case '/eucjp':
      return html(iconv.encode(newsPage('<meta charset="EUC-JP">'), 'euc-jp'), 'text/html');
    case '/eucjp-undeclared':
      return html(iconv.encode(newsPage(), 'euc-jp'), 'text/html');
    case '/iso2022jp':
      return html(jis(newsPage()), 'text/html; charset=ISO-2022-JP');
    case '/iso2022jp-undeclared':
      return html(jis(newsPage()), 'text/html');
    case '/slow':
      // Headers, then nothing: the check's deadline must end it.
      response.writeHead(200, { 'content-type': 'text/html' });
      response.write('<html><body>');
      return;
    case '/slow-answer':
      // Longer than the test crawler's ack wait: only heartbeats keep the check with its crawler.
      setTimeout(() => html(newsPage()), 5_000);
      return;
    case '/hold-first': {
      // The first request is held open for good (its crawler is killed meanwhile); later ones
      // are answered.
      if (site.hits(path) > 1) html(newsPage());
      return;
    }
    case '/large': {
      response.writeHead(200, { 'content-type': 'text/html' });
      const chunk = Buffer.from(`<p>${'x'.repeat(1_000)}</p>`);
      let sent = 0;
      const pump = () => {
        while (sent < 8 * 1_048_576) {
          sent += chunk.length;
          if (!response.write(chunk)) return void response.once('drain', pump);
        }
        response.end();
      };
      response.on('error', () => undefined);
      return pump();
    }
    case '/redirect-loop':
      return redirect('/redirect-loop');
    case '/missing':
      return html(page('<h1>Not Found</h1>'), 'text/html', 404);
    case '/broken':
      return html(page('<h1>Internal Server Error</h1>'), 'text/html', 500);
    case '/challenge':
      response.writeHead(503, { 'content-type': 'text/html', server: 'cloudflare' });
      return void response.end(
        '<html><head><title>Just a moment...</title></head><body><script src="/cdn-cgi/challenge-platform/h/b/orchestrate/chl_page/v1"></script></body></html>',
      );
    case '/heavy-frames':
      // Three frames each under the document cap, together over the page's.
      return html(
        page([1, 2, 3].map((n) => `<iframe id="f${n}" src="/frame/heavy?${n}"></iframe>`).join('')),
      );
    case '/frame/heavy':
      return html(page(`<p id="filler">${'x'.repeat(800_000)}</p>`));
    case '/with-frame':
      return html(page('<h1>Outer</h1><iframe id="prices" src="/frame/prices"></iframe>'));
    case '/frame/prices':
      return html(page('<table id="list"><tr><td>りんご</td><td>120円</td></tr></table>'));
    case '/needs-cookie': {
      const cookie = incoming.headers.cookie ?? '';
      return html(page(`<p id="who">${/member=gold/.test(cookie) ? 'gold member' : 'guest'}</p>`));
    }
    case '/echo-headers':
      return html(page(`<pre id="headers">${JSON.stringify(incoming.headers)}</pre>`));
    default:
      return html(page('<h1>Not Found</h1>'), 'text/html', 404);
  }
}
