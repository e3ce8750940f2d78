import type { IncomingMessage, ServerResponse } from 'node:http';
import { type FixtureSite, serveFixtureSite } from './fixture-site.ts';

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

const html = (body: string, head = '') =>
  `<!doctype html><html><head><meta charset="utf-8">${head}</head><body>${body}</body></html>`;

function send(response: ServerResponse, body: string, status = 200, headers: Record<string, string> = {}) {
  response.writeHead(status, { 'content-type': 'text/html; charset=utf-8', ...headers }).end(body);
}

const LARGE_PAGE = html(
  `<div id="start">big</div>${'<p>filler text for a very large page</p>'.repeat(80_000)}`,
);

const pages: Record<string, Handler> = {
  '/static': (_request, response) =>
    send(response, html('<h1>Shop</h1><div id="price">¥1,200</div><p class="note">in stock</p>')),

  // What a page says about its parts, for the names the wizard suggests for areas.
  '/named-areas': (_request, response) =>
    send(
      response,
      html(
        [
          '<h1>有機栽培のお茶のお店</h1>',
          '<ul><li aria-labelledby="tea-name"><h2 id="tea-name">有機緑茶</h2><p style="display:flex;gap:4px"><span>価格</span><span id="tea-price">¥1,480</span></p></li></ul>',
          '<section><h2>お知らせ</h2><p>営業時間の変更</p><div id="news">12月の休業日は28日からです</div></section>',
          '<label for="stock">在庫数</label><input id="stock" value="12">',
          '<div id="badge" aria-label="セール中の印">SALE</div>',
          '<dl><dt>送料</dt><dd id="shipping">¥600</dd></dl>',
          '<div><div id="unnamed">42</div></div>',
          '<div class="card"><h3>別の商品</h3></div><div class="card"><p id="after-card">在庫 3</p></div>',
          '<article><h3>Yame sencha green tea, 100 g</h3><p><b>Price</b> <span id="en-price">¥1,480</span></p></article>',
          '<h2 id="long">とても長い見出しのついた部分にある、説明がとても長くなってしまった監視の対象です</h2><p id="under-long">中身</p>',
        ].join(''),
      ),
    ),

  '/scripted': (_request, response) =>
    send(
      response,
      html(
        '<div id="app">loading</div><script>fetch("/data").then(function (r) { return r.json(); }).then(function (data) { document.getElementById("app").textContent = data.message; });</script>',
      ),
    ),

  '/data': (_request, response) => {
    // Longer than the DOM's quiet window: only the pending request tells the page is not done.
    const timer = setTimeout(
      () =>
        response
          .writeHead(200, { 'content-type': 'application/json' })
          .end('{"message":"rendered by script"}'),
      900,
    );
    response.on('close', () => clearTimeout(timer));
  },

  // Rendered by the page's own timers, no request in between: each step comes within the DOM's
  // quiet window of the one before, so only the last is the settled page.
  '/timed': (_request, response) =>
    send(
      response,
      html(
        '<div id="steps">0</div><script>var n = 0; function step() { n += 1; document.getElementById("steps").textContent = String(n); if (n < 4) setTimeout(step, 150); } setTimeout(step, 150);</script>',
      ),
    ),

  '/framed': (_request, response) =>
    send(
      response,
      html('<p>outer</p><iframe id="inner-frame" src="/inner" width="400" height="200"></iframe>'),
    ),
  '/framed-from': (request, response) => {
    const source = new URL(request.url ?? '/', 'http://fixture').searchParams.get('src') ?? '/inner';
    send(response, html(`<p>outer</p><iframe id="other-origin" src="${escapeHtml(source)}"></iframe>`));
  },
  '/inner': (_request, response) => send(response, html('<p class="inside">content inside the frame</p>')),

  '/login': (_request, response) =>
    send(
      response,
      html(
        '<form method="post" action="/do-login"><input id="user" name="user"><input id="pass" name="pass" type="password"><button id="submit" type="submit">Sign in</button></form>',
      ),
    ),
  '/do-login': (request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => {
      body += chunk.toString();
    });
    request.on('end', () => {
      const form = new URLSearchParams(body);
      if (form.get('user') === 'sato' && form.get('pass') === 's3cret!') {
        response.writeHead(303, { location: '/members', 'set-cookie': 'member=ok; Path=/; HttpOnly' }).end();
      } else response.writeHead(303, { location: '/login' }).end();
    });
  },
  '/members': (request, response) => {
    if (/(^|;\s*)member=ok/.test(request.headers.cookie ?? '')) {
      send(response, html('<div id="secret">members only: 会員価格 980円</div>'));
    } else response.writeHead(302, { location: '/login' }).end();
  },

  '/reveal': (_request, response) =>
    send(
      response,
      html(
        '<button id="more">more</button><div id="hidden" style="display:none">revealed text</div><script>document.getElementById("more").addEventListener("click", function () { document.getElementById("hidden").style.display = "block"; });</script>',
      ),
    ),

  '/slow': (_request, response) => {
    const timer = setTimeout(() => send(response, html('<div id="late">too late</div>')), 20_000);
    response.on('close', () => clearTimeout(timer));
  },
  '/delayed': (_request, response) => {
    const timer = setTimeout(() => send(response, html('<div id="done">finally</div>')), 1_500);
    response.on('close', () => clearTimeout(timer));
  },

  '/hanging-frame': (_request, response) =>
    send(response, html('<div id="ready">ready without the frame</div><iframe src="/slow"></iframe>')),

  '/large': (_request, response) => send(response, LARGE_PAGE),
  // A small document that pulls 2 MB of scripts: only the page's total download is too large.
  '/heavy': (_request, response) =>
    send(
      response,
      html(
        `<div id="start">light</div>${[1, 2, 3, 4].map((n) => `<script src="/heavy.js?${n}"></script>`).join('')}`,
      ),
    ),
  '/heavy.js': (_request, response) =>
    response.writeHead(200, { 'content-type': 'text/javascript' }).end(`// ${'x'.repeat(500_000)}\n`),

  '/excluded': (_request, response) =>
    send(
      response,
      html(
        '<div id="card" style="position:absolute;left:40px;top:40px;width:400px;height:300px;background:#fff">' +
          '<p id="price" style="position:absolute;left:20px;top:20px;width:200px;height:60px;margin:0;background:#1d4ed8">1,200</p>' +
          '<p id="stamp" style="position:absolute;left:20px;top:160px;width:200px;height:60px;margin:0;background:#dc2626">10:00</p>' +
          '</div>',
        '<style>body{margin:0;background:#fff}</style>',
      ),
    ),

  '/japanese': (_request, response) =>
    send(
      response,
      html(
        '<h1 id="title">見守り — ウェブページの変更を監視します</h1><p id="body">本日の価格は１，２００円です。在庫あり。東京都千代田区</p>',
        '<style>body{font-size:28px;background:#fff;color:#111}</style>',
      ),
    ),

  // A wide page (scaled down to 1280 px in the screenshot) with the price at a known place:
  // left 900, top 1400, 300 × 60 CSS pixels, in a solid colour to find it on the image.
  '/placed': (_request, response) =>
    send(
      response,
      html(
        '<p>Sample shop</p><div id="price">¥1,980</div><div style="width:2400px;height:3000px"></div>',
        '<style>body{margin:0;font:20px sans-serif;background:#fff}#price{position:absolute;left:900px;top:1400px;width:300px;height:60px;background:rgb(0,0,200);color:#fff}</style>',
      ),
    ),

  // Localises as real sites do: the server by Accept-Language, the script by the browser's
  // language and time zone.
  '/locale-echo': (request, response) =>
    send(
      response,
      html(
        `<p id="accept">${escapeHtml(String(request.headers['accept-language'] ?? 'none'))}</p><p id="language"></p><p id="zone"></p><p id="greeting"></p>` +
          '<script>document.getElementById("language").textContent = navigator.language;' +
          'document.getElementById("zone").textContent = Intl.DateTimeFormat().resolvedOptions().timeZone;' +
          'document.getElementById("greeting").textContent = navigator.language.startsWith("ja") ? "いらっしゃいませ" : "Welcome";</script>',
      ),
    ),

  '/tampering': (_request, response) =>
    send(
      response,
      html(
        '<div id="price">¥5,000</div><script>Document.prototype.querySelector = function () { return null; }; Object.defineProperty(HTMLElement.prototype, "innerText", { get: function () { return "tampered"; } });</script>',
      ),
    ),

  '/challenge': (_request, response) =>
    send(
      response,
      '<!doctype html><html><head><title>Just a moment...</title></head><body><script src="/cdn-cgi/challenge-platform/h/b/orchestrate/chl_page/v1"></script></body></html>',
      403,
      { server: 'cloudflare' },
    ),

  '/cookie-echo': (request, response) =>
    send(response, html(`<div id="cookies">${escapeHtml(request.headers.cookie ?? 'none')}</div>`), 200, {
      'set-cookie': 'seen=yes; Path=/',
    }),

  '/echo-via': (request, response) =>
    send(response, html(`<div id="via">${escapeHtml(String(request.headers.via ?? 'direct'))}</div>`)),

  '/frame-button': (_request, response) =>
    send(response, html('<iframe id="panel" src="/frame-button-inner" width="300" height="120"></iframe>')),
  '/frame-button-inner': (_request, response) =>
    send(
      response,
      html(
        '<button id="go">go</button><div id="out">idle</div><script>document.getElementById("go").addEventListener("click", function () { document.getElementById("out").textContent = "clicked inside"; });</script>',
      ),
    ),

  '/search': (request, response) => {
    const query = new URL(request.url ?? '/', 'http://fixture').searchParams.get('q');
    send(
      response,
      html(
        query === null
          ? '<form action="/search"><input id="q" name="q"></form>'
          : `<div id="result">results for ${escapeHtml(query)}</div>`,
      ),
    );
  },

  '/missing': (_request, response) => send(response, html('<h1>gone</h1>'), 404),
};

function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (character) => `&#${character.charCodeAt(0)};`);
}

/** A local site with one page per situation the browser half must handle, and `extra` pages. */
export async function startBrowserFixtureSite(extra: Record<string, Handler> = {}): Promise<FixtureSite> {
  const routes = { ...pages, ...extra };
  return serveFixtureSite((path, request, response) => {
    const hop = /^\/hop\/(\d+)$/.exec(path);
    if (hop) {
      // A redirect chain: /hop/3 → /hop/2 → /hop/1 → /hop/0 (a page).
      const left = Number(hop[1]);
      if (left === 0) send(response, html('<div id="end">end of the chain</div>'));
      else response.writeHead(302, { location: `/hop/${left - 1}` }).end();
      return;
    }
    const handler = routes[path];
    if (handler) handler(request, response);
    else send(response, html('<h1>not here</h1>'), 404);
  });
}
