import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FetchRequest } from '../src/domain/page-fetcher.ts';
import { type FixtureSite, serveFixtureSite } from './fixture-site.ts';

/**
 * The revalidation corpus (ADR 0031): JavaScript pages whose watched area (`#area`) is built
 * the ways real pages build it. Each page shows `V<n>`, its version on the server; `change`
 * moves it on. A check must report every change a full render would see, so each page is
 * checked, checked again (the shortcut, where the page allows it), changed, and checked.
 * `shortcut` says whether the second check should be answered without Chromium: pages drawn
 * from the clock or chance, or fed by a stream, must render every time.
 */
export interface CorpusPage {
  name: string;
  path: string;
  shortcut: boolean;
  /** Settings of the check beyond the URL and area. */
  cookies?: string;
  sessionState?: string;
  frame?: string;
  /** The version shows in the area's HTML rather than its text. */
  inHtml?: boolean;
}

/** The browser check of a corpus page, with the kept revalidation state when there is one. */
export function corpusCheckRequest(origin: string, page: CorpusPage, revalidation?: string): FetchRequest {
  return {
    url: `${origin}${page.path}`,
    mode: 'browser',
    userAgent: { kind: 'chrome' },
    actions: [],
    areas: [
      {
        areaId: 'area',
        selector: '#area',
        selectorType: 'css',
        ...(page.frame ? { frame: { selector: page.frame, selectorType: 'css' as const } } : {}),
      },
    ],
    screenshot: 'none',
    revalidate: true,
    ...(page.cookies ? { cookies: page.cookies } : {}),
    ...(page.sessionState ? { sessionState: page.sessionState } : {}),
    ...(revalidation ? { revalidation } : {}),
  };
}

export interface CorpusSite extends FixtureSite {
  pages: CorpusPage[];
  version(name: string): number;
  change(name: string): void;
}

type Handler = (
  v: number,
  rest: string,
  incoming: IncomingMessage,
  response: ServerResponse,
  body: string,
) => void;

const html = (body: string) =>
  `<!doctype html><html><head><meta charset="utf-8"></head><body><h1>corpus</h1>${body}</body></html>`;
const page = (script: string, extra = '') =>
  html(`${extra}<div id="area">loading</div><script>${script}</script>`);
const show = (expression: string) => `document.getElementById('area').textContent = ${expression};`;
const json = (response: ServerResponse, value: unknown, headers: Record<string, string> = {}) =>
  response.writeHead(200, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(value));
const text = (response: ServerResponse, body: string, type = 'text/html; charset=utf-8', headers = {}) =>
  response.writeHead(200, { 'content-type': type, ...headers }).end(body);
const fetchShow = (url: string, field = 't', init = '') =>
  `fetch(${url}${init ? `, ${init}` : ''}).then(r => r.json()).then(d => { ${show(`d.${field}`)} });`;

/** `fetch('data')` pages: the document is the same for every version, the data is not. */
const dataPage =
  (script: string, extra = ''): Handler =>
  (v, rest, _incoming, response) => {
    if (rest === '') return text(response, page(script, extra));
    return json(response, { t: `data V${v}` });
  };

const handlers: Record<string, { shortcut: boolean; handle: Handler; settings?: Partial<CorpusPage> }> = {
  'xhr-json': {
    shortcut: true,
    handle: dataPage(
      `const x = new XMLHttpRequest(); x.open('GET', 'data'); x.onload = () => { ${show('JSON.parse(x.responseText).t')} }; x.send();`,
    ),
  },
  'fetch-json': { shortcut: true, handle: dataPage(fetchShow("'data'")) },
  'fetch-slow': {
    shortcut: true,
    handle: (v, rest, _incoming, response) => {
      if (rest === '') return text(response, page(fetchShow("'data'")));
      setTimeout(() => json(response, { t: `slow V${v}` }), 300);
    },
  },
  'inline-data': {
    shortcut: true,
    handle: (v, _rest, _incoming, response) =>
      text(response, page(`const D = { t: 'inline V${v}' }; ${show('D.t')}`)),
  },
  'inline-timer': {
    shortcut: true,
    handle: (v, _rest, _incoming, response) =>
      text(response, page(`setTimeout(() => { ${show(`'timer V${v}'`)} }, 120);`)),
  },
  'timer-chain': {
    shortcut: true,
    handle: dataPage(
      `let parts = []; fetch('data').then(r => r.json()).then(d => { [1, 2, 3].forEach(i => setTimeout(() => { parts.push(d.t + '/' + i); ${show("parts.join(' ')")} }, i * 60)); });`,
    ),
  },
  'external-script': {
    shortcut: true,
    handle: (v, rest, _incoming, response) => {
      if (rest === '')
        return text(response, html('<div id="area">loading</div><script src="app.js"></script>'));
      text(response, show(`'script V${v}'`), 'text/javascript');
    },
  },
  'module-import': {
    shortcut: true,
    handle: (v, rest, _incoming, response) => {
      if (rest === '')
        return text(
          response,
          html(
            `<div id="area">loading</div><script type="module">import { t } from './mod.js'; ${show('t')}</script>`,
          ),
        );
      text(response, `export const t = 'module V${v}';`, 'text/javascript');
    },
  },
  jsonp: {
    shortcut: true,
    handle: (v, rest, _incoming, response) => {
      if (rest === '')
        return text(
          response,
          page(
            `window.cb = d => { ${show('d.t')} }; const s = document.createElement('script'); s.src = 'jsonp?callback=cb'; document.body.append(s);`,
          ),
        );
      text(response, `cb(${JSON.stringify({ t: `jsonp V${v}` })})`, 'text/javascript');
    },
  },
  stylesheet: {
    shortcut: true,
    handle: (v, rest, _incoming, response) => {
      if (rest === '')
        return text(
          response,
          html(
            `<link rel="stylesheet" href="style.css"><div id="area">${[1, 2, 3, 4].map((n) => `<span class="s${n}">V${n} </span>`).join('')}</div>`,
          ),
        );
      text(response, `#area span { display: none } #area .s${v} { display: inline }`, 'text/css');
    },
  },
  iframe: {
    shortcut: true,
    settings: { frame: 'iframe#inner' },
    handle: (v, rest, _incoming, response) => {
      if (rest === '') return text(response, html('<iframe id="inner" src="frame"></iframe>'));
      if (rest === 'frame') return text(response, page(fetchShow("'data'")));
      json(response, { t: `frame V${v}` });
    },
  },
  redirect: {
    shortcut: true,
    handle: (v, rest, _incoming, response) => {
      if (rest === '') return response.writeHead(302, { location: `v${v}` }).end();
      text(response, page(show(`'landed ${rest.toUpperCase()}'`)));
    },
  },
  'nested-fetch': {
    shortcut: true,
    handle: (v, rest, _incoming, response) => {
      if (rest === '')
        return text(
          response,
          page(
            `fetch('index.json').then(r => r.json()).then(i => fetch(i.next)).then(r => r.json()).then(d => { ${show('d.t')} });`,
          ),
        );
      if (rest === 'index.json') return json(response, { next: 'item.json?id=7' });
      json(response, { t: `nested V${v}` });
    },
  },
  graphql: {
    shortcut: true,
    handle: (v, rest, _incoming, response, body) => {
      if (rest === '')
        return text(
          response,
          page(
            fetchShow(
              "'graphql'",
              'data.price',
              `{ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ price }' }) }`,
            ),
          ),
        );
      if (!body.includes('price')) return json(response, { errors: ['no query'] });
      json(response, { data: { price: `graphql V${v}` } });
    },
  },
  'graphql-variables': {
    shortcut: true,
    handle: (v, rest, _incoming, response, body) => {
      if (rest === '')
        return text(
          response,
          page(
            fetchShow(
              "'graphql'",
              'data.item',
              `{ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: 'query($id: ID!) { item(id: $id) }', variables: { id: 42 } }) }`,
            ),
          ),
        );
      const id = (JSON.parse(body || '{}') as { variables?: { id?: number } }).variables?.id;
      json(response, { data: { item: `item ${id} V${v}` } });
    },
  },
  'form-post-fetch': {
    shortcut: true,
    handle: (v, rest, _incoming, response, body) => {
      if (rest === '')
        return text(
          response,
          page(fetchShow("'search'", 't', `{ method: 'POST', body: new URLSearchParams({ q: 'tea' }) }`)),
        );
      json(response, { t: `${new URLSearchParams(body).get('q')} V${v}` });
    },
  },
  'cache-bust-time': { shortcut: true, handle: dataPage(fetchShow("'data?_=' + Date.now()")) },
  'cache-bust-random': { shortcut: true, handle: dataPage(fetchShow("'data?r=' + Math.random()")) },
  'pagination-query': {
    shortcut: true,
    handle: (v, rest, incoming, response) => {
      if (rest === '') return text(response, page(fetchShow("'list?page=2'")));
      const pageNumber = new URL(incoming.url ?? '', 'http://x').searchParams.get('page');
      json(response, { t: `page ${pageNumber} V${v}` });
    },
  },
  'server-cookie': {
    shortcut: true,
    handle: (v, rest, incoming, response) => {
      if (rest === '')
        return text(response, page(fetchShow("'data'")), 'text/html; charset=utf-8', {
          'set-cookie': 'uid=u1; Path=/; Max-Age=3600',
        });
      const signedIn = (incoming.headers.cookie ?? '').includes('uid=u1');
      json(response, { t: signedIn ? `member V${v}` : 'guest' });
    },
  },
  'rotating-cookie': {
    // Every answer sets a new cookie: asked again, the answer always differs.
    shortcut: false,
    handle: (() => {
      let served = 0;
      return (v: number, rest: string, _incoming: IncomingMessage, response: ServerResponse) => {
        if (rest === '')
          return text(response, page(fetchShow("'data'")), 'text/html; charset=utf-8', {
            'set-cookie': `visit=${++served}; Path=/`,
          });
        json(response, { t: `rotating V${v}` });
      };
    })(),
  },
  'user-cookies': {
    shortcut: true,
    settings: { cookies: 'plan=gold' },
    handle: (v, rest, incoming, response) => {
      if (rest === '') return text(response, page(fetchShow("'data'")));
      const plan = /plan=(\w+)/.exec(incoming.headers.cookie ?? '')?.[1] ?? 'none';
      json(response, { t: `${plan} V${v}` });
    },
  },
  'kept-session': {
    shortcut: true,
    handle: (v, rest, incoming, response) => {
      if (rest === '') return text(response, page(fetchShow("'account'")));
      const session = /sid=(\w+)/.exec(incoming.headers.cookie ?? '')?.[1];
      json(response, { t: session === 'kept1' ? `balance V${v}` : 'please sign in' });
    },
  },
  'custom-header': {
    shortcut: true,
    handle: (v, rest, incoming, response) => {
      if (rest === '')
        return text(response, page(fetchShow("'data'", 't', "{ headers: { 'x-api-key': 'k1' } }")));
      json(response, { t: incoming.headers['x-api-key'] === 'k1' ? `keyed V${v}` : 'no key' });
    },
  },
  'local-storage': {
    shortcut: true,
    handle: dataPage(
      `fetch('data').then(r => r.json()).then(d => { localStorage.setItem('d', JSON.stringify(d)); ${show("JSON.parse(localStorage.getItem('d')).t")} });`,
    ),
  },
  'service-worker': {
    shortcut: true,
    handle: (v, rest, _incoming, response) => {
      if (rest === '')
        return text(
          response,
          page(
            `if (navigator.serviceWorker) navigator.serviceWorker.register('sw.js').catch(() => undefined); ${fetchShow("'data'")}`,
          ),
        );
      if (rest === 'sw.js')
        return text(
          response,
          `self.addEventListener('fetch', e => e.respondWith(new Response('{"t":"from the worker"}')));`,
          'text/javascript',
        );
      json(response, { t: `sw V${v}` });
    },
  },
  websocket: {
    shortcut: false,
    handle: (_v, _rest, _incoming, response) =>
      text(
        response,
        page(
          `const s = new WebSocket('ws://' + location.host + '/c/websocket/socket'); s.onmessage = e => { ${show('e.data')} };`,
        ),
      ),
  },
  eventsource: {
    shortcut: false,
    handle: (v, rest, _incoming, response) => {
      if (rest === '')
        return text(response, page(`new EventSource('events').onmessage = e => { ${show('e.data')} };`));
      response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      response.write(`data: stream V${v}\n\n`);
    },
  },
  'lazy-image': {
    shortcut: true,
    settings: { inHtml: true },
    handle: (v, rest, _incoming, response) => {
      if (rest === '')
        return text(
          response,
          html(
            `<div style="height:1500px">top</div><div id="area"><img class="lazy" alt="item" data-src="item-V${v}.png" width="10" height="10"> item</div><script>new IntersectionObserver((entries, o) => entries.forEach(e => { if (e.isIntersecting) { e.target.src = e.target.dataset.src; o.unobserve(e.target); } }), { rootMargin: '2000px' }).observe(document.querySelector('img.lazy'));</script>`,
          ),
        );
      response.writeHead(404).end();
    },
  },
  'lazy-content': {
    shortcut: true,
    handle: dataPage(
      `new IntersectionObserver((entries, o) => entries.forEach(e => { if (e.isIntersecting) { o.disconnect(); ${fetchShow("'data'")} } })).observe(document.getElementById('area'));`,
    ),
  },
  'random-ab': {
    shortcut: false,
    handle: (v, _rest, _incoming, response) =>
      text(response, page(`${show(`(Math.random() < 0.5 ? 'variant A' : 'variant B') + ' V${v}'`)}`)),
  },
  clock: {
    shortcut: false,
    handle: (v, _rest, _incoming, response) =>
      text(response, page(show(`'today ' + new Date().toISOString().slice(0, 10) + ' V${v}'`))),
  },
  'random-uuid': {
    shortcut: false,
    handle: (v, _rest, _incoming, response) =>
      text(response, page(show(`'order ' + crypto.randomUUID().slice(0, 2) + ' V${v}'`))),
  },
  'etag-json': {
    shortcut: true,
    handle: (v, rest, incoming, response) => {
      if (rest === '') return text(response, page(fetchShow("'data'")));
      const tag = `"v${v}"`;
      if (incoming.headers['if-none-match'] === tag) return response.writeHead(304, { etag: tag }).end();
      json(response, { t: `etag V${v}` }, { etag: tag, 'cache-control': 'no-cache' });
    },
  },
  'last-modified-json': {
    shortcut: true,
    handle: (v, rest, incoming, response) => {
      if (rest === '') return text(response, page(fetchShow("'data'")));
      const modified = new Date(Date.UTC(2026, 0, v)).toUTCString();
      if (incoming.headers['if-modified-since'] === modified)
        return response.writeHead(304, { 'last-modified': modified }).end();
      json(response, { t: `modified V${v}` }, { 'last-modified': modified, 'cache-control': 'no-cache' });
    },
  },
  'web-worker': {
    shortcut: true,
    handle: (v, rest, _incoming, response) => {
      if (rest === '')
        return text(response, page(`new Worker('worker.js').onmessage = e => { ${show('e.data')} };`));
      if (rest === 'worker.js')
        return text(
          response,
          `fetch('data').then(r => r.json()).then(d => postMessage(d.t));`,
          'text/javascript',
        );
      json(response, { t: `worker V${v}` });
    },
  },
  'animation-frame': {
    shortcut: true,
    handle: dataPage(
      `fetch('data').then(r => r.json()).then(d => requestAnimationFrame(() => requestAnimationFrame(() => { ${show('d.t')} })));`,
    ),
  },
  'document-write': {
    shortcut: true,
    handle: (v, _rest, _incoming, response) =>
      text(
        response,
        html(
          `<div id="area"><script>document.write('written ' + ${JSON.stringify(`V${v}`)});</script></div>`,
        ),
      ),
  },
  'accept-language': {
    shortcut: true,
    handle: (v, rest, incoming, response) => {
      if (rest === '') return text(response, page(fetchShow("'data'")));
      json(response, { t: `${(incoming.headers['accept-language'] ?? 'none').slice(0, 2)} V${v}` });
    },
  },
};

/** The corpus's pages, each at /c/<name>/ on one local server. */
export async function startCorpusSite(): Promise<CorpusSite> {
  const versions = new Map<string, number>();
  const version = (name: string) => versions.get(name) ?? 1;
  const site = await serveFixtureSite(
    (path, incoming, response) => {
      const match = /^\/c\/([\w-]+)\/(.*)$/.exec(path);
      const entry = match ? handlers[match[1] as string] : undefined;
      if (!match || !entry) return void response.writeHead(404).end();
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.on('end', () =>
        entry.handle(
          version(match[1] as string),
          match[2] as string,
          incoming,
          response,
          Buffer.concat(chunks).toString(),
        ),
      );
    },
    (server) =>
      server.on('upgrade', (incoming: IncomingMessage, socket: Socket) => {
        // The smallest WebSocket server: the handshake, then one text frame with the version.
        const key = incoming.headers['sec-websocket-key'] ?? '';
        const accept = createHash('sha1')
          .update(`${key}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`)
          .digest('base64');
        socket.write(
          `HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`,
        );
        const payload = Buffer.from(`socket V${version('websocket')}`);
        socket.on('error', () => undefined);
        // Closed once said: an upgraded socket would otherwise hold the server's close.
        socket.end(Buffer.concat([Buffer.from([0x81, payload.length]), payload]));
      }),
  );
  const pages = Object.entries(handlers).map(([name, entry]) => ({
    name,
    path: `/c/${name}/`,
    shortcut: entry.shortcut,
    ...entry.settings,
    ...(name === 'kept-session'
      ? {
          sessionState: JSON.stringify({
            cookies: [
              {
                name: 'sid',
                value: 'kept1',
                domain: '127.0.0.1',
                path: '/',
                expires: -1,
                httpOnly: true,
                secure: false,
                sameSite: 'Lax',
              },
            ],
            origins: [],
          }),
        }
      : {}),
  }));
  return {
    ...site,
    pages,
    version,
    change: (name) => versions.set(name, version(name) + 1),
  };
}
