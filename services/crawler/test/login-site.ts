import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { LoginSettings } from '../src/domain/page-fetcher.ts';
import { type FixtureSite, serveFixtureSite } from './fixture-site.ts';

/** How the members page answers a visitor without a live session. */
export type SignedOutAnswer = 'redirect' | 'form' | 'status' | 'silent';

export interface LoginSite {
  site: FixtureSite;
  /** Logins that succeeded so far. */
  logins(): number;
  /** Ends every session on the server; the browsers keep their cookies. */
  expireSessions(): void;
  /** A redirect to the login page (the default), the form in place, a 401, or a guest page. */
  answerSignedOut(answer: SignedOutAnswer): void;
  reset(): void;
}

export const MEMBERS_TEXT = 'members only: 会員価格 980円';

const html = (body: string) =>
  `<!doctype html><html><head><meta charset="utf-8"></head><body>${body}</body></html>`;
const FORM =
  '<form method="post" action="/do-login"><input id="user" name="user"><input id="pass" name="pass" type="password"><button id="submit" type="submit">Sign in</button></form>';

/**
 * A members-only page (`/members`, `#secret`) behind a login form (`/login`, user `sato`,
 * password `s3cret!`), holding its sessions on the server as real sites do: a session can lapse
 * there while its cookie stays in the browser.
 */
export async function startLoginSite(): Promise<LoginSite> {
  const sessions = new Set<string>();
  let logins = 0;
  let signedOut: SignedOutAnswer = 'redirect';
  const route = (path: string, request: IncomingMessage, response: ServerResponse) => {
    const send = (body: string, status = 200) =>
      response.writeHead(status, { 'content-type': 'text/html; charset=utf-8' }).end(html(body));
    if (path === '/login') return send(FORM);
    if (path === '/do-login') {
      let body = '';
      request.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      request.on('end', () => {
        const form = new URLSearchParams(body);
        if (form.get('user') !== 'sato' || form.get('pass') !== 's3cret!') {
          response.writeHead(303, { location: '/login' }).end();
          return;
        }
        logins++;
        const sid = randomUUID();
        sessions.add(sid);
        response
          .writeHead(303, {
            location: '/members',
            'set-cookie': `sid=${sid}; Path=/; HttpOnly; Max-Age=86400`,
          })
          .end();
      });
      return;
    }
    if (path === '/members') {
      const sid = /(?:^|;\s*)sid=([^;]+)/.exec(request.headers.cookie ?? '')?.[1];
      if (sid && sessions.has(sid)) return send(`<div id="secret">${MEMBERS_TEXT}</div>`);
      if (signedOut === 'redirect') return void response.writeHead(302, { location: '/login' }).end();
      if (signedOut === 'form') return send(FORM);
      if (signedOut === 'status') return send('<p>please sign in</p>', 401);
      return send('<p>welcome, guest</p>');
    }
    send('not found', 404);
  };
  const site = await serveFixtureSite(route);
  return {
    site,
    logins: () => logins,
    expireSessions: () => sessions.clear(),
    answerSignedOut: (answer) => {
      signedOut = answer;
    },
    reset() {
      logins = 0;
      sessions.clear();
      signedOut = 'redirect';
    },
  };
}

const typed = (selector: string, value: string) => ({
  type: 'enter_text' as const,
  locator: { selector, selectorType: 'css' as const },
  value,
  skippable: false,
});

/** The login's actions typed into the form: user, password, submit. */
export const LOGIN_FIELDS = [
  typed('#user', 'sato'),
  typed('#pass', 's3cret!'),
  {
    type: 'click' as const,
    locator: { selector: '#submit', selectorType: 'css' as const },
    skippable: false,
  },
];

/** A login that starts on the site's login page, known to work by replaying it. */
export const replayLogin = (site: FixtureSite): LoginSettings => ({
  verify: { kind: 'replay' },
  actions: [{ type: 'goto_url', value: `${site.origin}/login`, skippable: false }, ...LOGIN_FIELDS],
});

/** A login typed into the form the members page itself shows, known to work by its cookie. */
export const cookieLogin: LoginSettings = { verify: { kind: 'cookie', name: 'sid' }, actions: LOGIN_FIELDS };
