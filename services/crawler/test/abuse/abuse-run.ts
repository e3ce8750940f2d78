// Run inside a loopback-only network namespace by abuse-matrix.ts: every forbidden destination
// the matrix names is tried by every vector, in HTTP mode, browser mode and the wizard preview,
// while a canary server listens on every refused address put on the namespace's loopback. A
// broken guard would show as a canary hit; nothing can leave the machine. Prints one JSON line
// per case and a last line with the canary's count.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { createBrowserPageFetcher } from '../../src/browser/browser-page-fetcher.ts';
import { createBrowserPool } from '../../src/browser/browser-pool.ts';
import type { AreaRequest, FetchRequest, FetchResult, PageFetcher } from '../../src/domain/page-fetcher.ts';
import { createHttpPageFetcher } from '../../src/http/http-page-fetcher.ts';
import { createPreviewService } from '../../src/preview/preview-service.ts';
import { PreviewError } from '../../src/preview/preview-sessions.ts';
import { type AbuseCase, type CaseOutcome, destinations, VECTORS, type Vector } from './abuse-cases.ts';

// The canary: one dual-stack listener on every address of the namespace's loopback.
let canaryHits = 0;
const canarySockets = new Set<Socket>();
const canary = createServer((_request, response) => response.end('<div id="own">canary</div>'));
canary.on('connection', (socket) => {
  canaryHits++;
  canarySockets.add(socket);
  socket.on('close', () => canarySockets.delete(socket));
});
await new Promise<void>((resolve) => canary.listen(0, '::', resolve));
const canaryPort = (canary.address() as AddressInfo).port;

// The attacker's page: allowed (a test fixture), it sends the check where it must not go.
const page = (body: string) =>
  `<!doctype html><html><head><title>t</title></head><body>${body}</body></html>`;
const own = '<div id="own">own text</div>';
function attack(incoming: IncomingMessage, response: ServerResponse) {
  const url = new URL(incoming.url ?? '/', 'http://fixture');
  const to = url.searchParams.get('to') ?? '';
  const html = (body: string) => response.writeHead(200, { 'content-type': 'text/html' }).end(page(body));
  const attribute = to.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
  switch (url.pathname as `/${Vector}`) {
    case '/redirect':
      return void response.writeHead(302, { location: to }).end();
    case '/meta':
      return html(`<meta http-equiv="refresh" content="0;url=${attribute}">${own}`);
    case '/location':
      return html(`${own}<script>location.href = ${JSON.stringify(to)};</script>`);
    case '/iframe':
    case '/side-frame':
      return html(`${own}<iframe id="f" src="${attribute}"></iframe>`);
    case '/subresource':
      return html(
        `${own}<img src="${attribute}"><link rel="stylesheet" href="${attribute}">` +
          `<script>fetch(${JSON.stringify(to)}).catch(() => {});</script>`,
      );
    default:
      return html('<div id="other">not an attack</div>');
  }
}
const site = createServer(attack);
await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
const siteAuthority = `127.0.0.1:${(site.address() as AddressInfo).port}`;

const httpFetcher = createHttpPageFetcher({ allow: [siteAuthority] });
const pool = createBrowserPool({ allow: [siteAuthority], browsers: 1, pagesPerBrowser: 4 });
const browserFetcher = createBrowserPageFetcher({ pool, limits: { loadTimeoutMs: 10_000 } });
const preview = createPreviewService({
  pool,
  httpFetcher,
  limits: { loadTimeoutMs: 10_000 },
  sessions: { perUser: 1, total: 8 },
});

const OWN_AREA: AreaRequest = { areaId: 'own', selector: '#own', selectorType: 'css' };
const FRAME_AREA: AreaRequest = {
  areaId: 'framed',
  selector: '#own',
  selectorType: 'css',
  frame: { selector: '#f', selectorType: 'css' },
};

function checkRequest(url: string, vector: Vector, mode: 'http' | 'browser'): FetchRequest {
  return {
    url,
    mode,
    userAgent: { kind: 'none' },
    actions: [],
    // The iframe case reads inside the frame, so HTTP mode loads the frame too; the side-frame
    // case reads the page's own text beside the same frame.
    areas: vector === 'direct' || vector === 'redirect' ? [] : [vector === 'iframe' ? FRAME_AREA : OWN_AREA],
    screenshot: 'none',
  };
}

function outcomeOf(result: FetchResult): CaseOutcome {
  return result.ok
    ? { code: 'ok', detail: result.areas.map((area) => area.text).join(' | ') }
    : { code: result.code, detail: result.detail };
}

async function runCase(
  abuseCase: AbuseCase,
  fetchers: Record<'http' | 'browser', PageFetcher>,
  user: string,
) {
  const { vector, mode, destination } = abuseCase;
  const target = destination.url.replace('{port}', String(canaryPort));
  const url =
    vector === 'direct' ? target : `http://${siteAuthority}/${vector}?to=${encodeURIComponent(target)}`;
  const started = Date.now();
  let outcome: CaseOutcome;
  if (mode === 'preview') {
    try {
      const opened = await preview.open(user, { url, userAgent: { kind: 'none' }, useProxy: false });
      if ('problem' in opened) outcome = opened.problem;
      else {
        // What the wizard reads in the area is the page's own text, not the guard's answer.
        const area = await preview.evaluateArea(user, opened.sessionId, OWN_AREA);
        await preview.close(user, opened.sessionId);
        outcome = { code: 'ok', detail: area.found ? area.text : `no area on ${opened.render.url}` };
      }
    } catch (error) {
      // The wizard turns down a URL that is not http(s) as invalid before anything is fetched.
      outcome =
        error instanceof PreviewError
          ? { code: `preview_${error.kind}`, detail: error.message }
          : { code: 'error', detail: String(error) };
    }
  } else {
    outcome = outcomeOf(
      await fetchers[mode].fetch(checkRequest(url, vector, mode), AbortSignal.timeout(60_000)),
    );
  }
  const line = { ...abuseCase, destination: destination.name, outcome, ms: Date.now() - started };
  process.stdout.write(`${JSON.stringify(line)}\n`);
}

const cases: AbuseCase[] = [];
for (const mode of ['http', 'browser', 'preview'] as const) {
  for (const vector of VECTORS) {
    for (const destination of destinations(vector)) cases.push({ mode, vector, destination });
  }
}

// HTTP cases one after another is already quick; browser and preview cases share one Chromium
// with a few pages in flight, which is what a crawler does.
const fetchers = { http: httpFetcher, browser: browserFetcher };
const inFlight = 4;
let next = 0;
await Promise.all(
  Array.from({ length: inFlight }, async (_, worker) => {
    while (next < cases.length) {
      const abuseCase = cases[next++] as AbuseCase;
      await runCase(abuseCase, fetchers, `abuser-${worker}`);
    }
  }),
);

await preview.closeAll();
await browserFetcher.close();
await httpFetcher.close();
site.close();
for (const socket of canarySockets) socket.destroy();
canary.close();
process.stdout.write(`${JSON.stringify({ canaryHits })}\n`);
