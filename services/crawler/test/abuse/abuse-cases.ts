/**
 * The abuse matrix: forbidden destinations × the ways a watched page can send a check there ×
 * the three ways the product opens a page. `{port}` is the canary's port.
 */
export const VECTORS = [
  'direct',
  'redirect',
  'meta',
  'location',
  'iframe',
  'side-frame',
  'subresource',
] as const;
export type Vector = (typeof VECTORS)[number];
export type Mode = 'http' | 'browser' | 'preview';

export interface Destination {
  name: string;
  url: string;
}

/** Addresses the namespace puts on its loopback, so the canary answers there too. */
export const CANARY_ADDRESSES = [
  '169.254.169.254/32',
  '10.0.0.1/32',
  '172.16.0.1/32',
  '192.168.0.1/32',
  '100.64.0.1/32',
  'fd00::1/128',
];

/** The namespace's /etc/hosts: names that lead inside, standing in for a hostile DNS answer. */
export const HOSTILE_NAMES = {
  'metadata.test': '169.254.169.254',
  'intranet.test': '10.0.0.1',
  'ula.test': 'fd00::1',
  'loop.test': '127.0.0.1',
};

const ADDRESSES: Destination[] = [
  { name: '127.0.0.1', url: 'http://127.0.0.1:{port}/' },
  { name: '127.1', url: 'http://127.1:{port}/' },
  { name: '0x7f000001', url: 'http://0x7f000001:{port}/' },
  { name: '2130706433', url: 'http://2130706433:{port}/' },
  { name: '0177.0.0.1', url: 'http://0177.0.0.1:{port}/' },
  { name: '127.0.0.1 with user info', url: 'http://user:secret@127.0.0.1:{port}/?token=x' },
  { name: '[::1]', url: 'http://[::1]:{port}/' },
  { name: '[::ffff:127.0.0.1]', url: 'http://[::ffff:127.0.0.1]:{port}/' },
  { name: '[::ffff:7f00:1]', url: 'http://[::ffff:7f00:1]:{port}/' },
  { name: 'localhost', url: 'http://localhost:{port}/' },
  { name: 'localhost.', url: 'http://localhost.:{port}/' },
  { name: 'LOCALHOST', url: 'http://LOCALHOST:{port}/' },
  { name: 'sub.localhost', url: 'http://sub.localhost:{port}/' },
  { name: '0.0.0.0', url: 'http://0.0.0.0:{port}/' },
  { name: '0', url: 'http://0:{port}/' },
  { name: '[::]', url: 'http://[::]:{port}/' },
  { name: '10.0.0.1', url: 'http://10.0.0.1:{port}/' },
  { name: '172.16.0.1', url: 'http://172.16.0.1:{port}/' },
  { name: '192.168.0.1', url: 'http://192.168.0.1:{port}/' },
  { name: '100.64.0.1 (CGNAT)', url: 'http://100.64.0.1:{port}/' },
  { name: '169.254.169.254', url: 'http://169.254.169.254:{port}/latest/meta-data/' },
  { name: '[::ffff:169.254.169.254]', url: 'http://[::ffff:169.254.169.254]:{port}/' },
  { name: '[64:ff9b::a9fe:a9fe] (NAT64)', url: 'http://[64:ff9b::a9fe:a9fe]:{port}/' },
  { name: 'metadata.google.internal', url: 'http://metadata.google.internal:{port}/computeMetadata/v1/' },
  { name: 'metadata.test → 169.254.169.254', url: 'http://metadata.test:{port}/' },
  { name: 'intranet.test → 10.0.0.1', url: 'http://intranet.test:{port}/' },
  { name: 'loop.test → 127.0.0.1', url: 'http://loop.test:{port}/' },
  { name: '[fd00::1] (ULA)', url: 'http://[fd00::1]:{port}/' },
  { name: 'ula.test → fd00::1', url: 'http://ula.test:{port}/' },
  { name: '[fe80::1] (link-local)', url: 'http://[fe80::1]:{port}/' },
  { name: 'https://127.0.0.1', url: 'https://127.0.0.1:{port}/' },
  { name: 'https://metadata.test', url: 'https://metadata.test:{port}/' },
];

const SCHEMES: Destination[] = [
  { name: 'file:', url: 'file:///etc/passwd' },
  { name: 'data:', url: 'data:text/html,<div id="own">data</div>' },
  { name: 'ftp:', url: 'ftp://127.0.0.1:{port}/' },
  { name: 'gopher:', url: 'gopher://127.0.0.1:{port}/_GET' },
  { name: 'javascript:', url: 'javascript:alert(1)' },
];

/**
 * Forbidden schemes are tried directly and by redirect; a page navigating itself to them is
 * stopped by Chromium before any request, so no guard is involved there. Chromium likewise
 * never requests a frame whose URL carries user info, so that one is not tried as a frame.
 */
export function destinations(vector: Vector): Destination[] {
  if (vector === 'direct' || vector === 'redirect') return [...ADDRESSES, ...SCHEMES];
  return vector === 'iframe' || vector === 'side-frame'
    ? ADDRESSES.filter(({ url }) => !url.includes('@'))
    : ADDRESSES;
}

export interface AbuseCase {
  mode: Mode;
  vector: Vector;
  destination: Destination;
}

export interface CaseOutcome {
  code: string;
  detail: string;
}

/** One case as the run reports it. */
export interface CaseResult {
  mode: Mode;
  vector: Vector;
  destination: string;
  outcome: CaseOutcome;
  ms: number;
}

/**
 * What the product must answer. A refusal is the product's own `refused_address`; sub-resources
 * and frames beside the watched area are dropped and the page still reads; HTTP mode runs no script and follows no meta refresh, so
 * there the page itself is read. The wizard turns a typed non-http URL down as invalid before
 * anything is fetched, which is a refusal too.
 */
export function expected(result: Pick<CaseResult, 'mode' | 'vector' | 'destination'>): 'refused' | 'read' {
  if (result.vector === 'subresource') return 'read';
  // A frame to a forbidden place is dropped like a sub-resource when the area is beside it (the
  // wizard's page too: a person's own browser would show the page without it); only a check that
  // reads inside the frame is refused, as it would read the guard's answer.
  if (result.vector === 'side-frame' || (result.vector === 'iframe' && result.mode === 'preview'))
    return 'read';
  if (result.mode === 'http' && (result.vector === 'meta' || result.vector === 'location')) return 'read';
  return 'refused';
}

/** Refusals must be prompt: never retried, never waiting on a lookup. */
export const PROMPT_MS = 15_000;

export function isCorrect(result: CaseResult): boolean {
  if (result.ms > PROMPT_MS) return false;
  if (expected(result) === 'read')
    return result.outcome.code === 'ok' && result.outcome.detail.includes('own text');
  const isScheme = SCHEMES.some(({ name }) => name === result.destination);
  if (result.mode === 'preview' && result.vector === 'direct' && result.outcome.code === 'preview_invalid') {
    return isScheme;
  }
  return result.outcome.code === 'refused_address' && !leaksInside(result);
}

const NAMES = ['localhost', 'metadata', '.test'];
const INSIDE = /127\.0\.0\.1|10\.0\.0\.1|169\.254|fd00|::1|loopback|private|linkLocal|uniqueLocal/;

/**
 * A refusal must not carry the user info or query of the URL (where tokens sit), nor tell what
 * a name resolved to. The attacker's own page (on 127.0.0.1) may be named.
 */
function leaksInside(result: CaseResult): boolean {
  const detail = result.outcome.detail.replace(/http:\/\/127\.0\.0\.1:\d+\/[a-z]+/g, 'the page');
  if (/secret|token/.test(detail)) return true;
  const isName = NAMES.some((name) => result.destination.toLowerCase().includes(name));
  return isName && INSIDE.test(detail);
}
