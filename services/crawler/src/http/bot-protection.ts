/**
 * Whether a response is a bot-protection wall rather than the page: the site is up but keeps
 * robots out, which the user must hear about differently from 'could not reach the site'.
 * Returns the protection's name, or null.
 */
export function botProtectionMarker(
  status: number,
  headers: Record<string, string>,
  body: string,
): string | null {
  const server = (headers.server ?? '').toLowerCase();
  if (headers['cf-mitigated'] === 'challenge') return 'Cloudflare challenge';
  if (ANY_CHALLENGE.test(body)) {
    for (const [name, pattern] of CHALLENGES) if (pattern.test(body)) return name;
  }
  if (!BLOCKING_STATUSES.has(status)) return null;
  if (headers['x-datadome'] || headers['x-dd-b']) return 'DataDome';
  if (server.includes('cloudflare') && /Attention Required!|Access denied|error code: 10\d\d/i.test(body))
    return 'Cloudflare';
  if (server.includes('akamaighost') || /Reference&#32;#\d|Reference #\d+\.\w+/.test(body)) return 'Akamai';
  for (const [name, pattern] of BLOCK_PAGES) if (pattern.test(body)) return name;
  return null;
}

const BLOCKING_STATUSES = new Set([401, 403, 405, 429, 503]);

/** Challenge pages that may even answer 200. */
const CHALLENGES: [string, RegExp][] = [
  ['Cloudflare challenge', /cf-chl-|\/cdn-cgi\/challenge-platform\/|<title>Just a moment\.\.\.<\/title>/i],
  ['DataDome', /captcha-delivery\.com|geo\.captcha-delivery/i],
  ['PerimeterX', /px-captcha|_pxCaptcha|perimeterx/i],
  ['Imperva', /_Incapsula_Resource|Incapsula incident ID/i],
  ['AWS WAF', /awswaf|aws-waf-token/i],
];

// Every page is read for a challenge and almost none is one: one pass over the body rules them all
// out at a third of the cost of a pass per protection, which only then names the first that matches.
const ANY_CHALLENGE = new RegExp(CHALLENGES.map(([, pattern]) => pattern.source).join('|'), 'i');

/** Only meaningful on a refusing status: a normal page may embed a captcha in a form. */
const BLOCK_PAGES: [string, RegExp][] = [
  ['captcha', /g-recaptcha|hcaptcha\.com|h-captcha|cf-turnstile|captcha/i],
  [
    'bot check',
    /are you a robot|not a robot|unusual traffic|automated (queries|requests|access)|bot detected|ロボットではありません/i,
  ],
  ['access denied', /<title>\s*(access denied|forbidden|アクセスが拒否されました)/i],
];
