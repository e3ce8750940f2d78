import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { AccountProblem } from './account-problem.ts';
import { startXSignIn } from './x-sign-in.ts';

const config = {
  clientId: 'client',
  clientSecret: '',
  authorizeUrl: 'https://x.example/i/oauth2/authorize',
  tokenUrl: 'https://x.example/token',
  userInfoUrl: 'https://x.example/me',
  scopes: 'users.read tweet.read',
};

describe('startXSignIn', () => {
  it('builds an authorization URL with an S256 challenge of a fresh verifier and state', () => {
    const first = startXSignIn(config, 'https://mimamori.example/api/signin/x/callback');
    const second = startXSignIn(config, 'https://mimamori.example/api/signin/x/callback');
    const url = new URL(first.authorizeUrl);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      response_type: 'code',
      client_id: 'client',
      redirect_uri: 'https://mimamori.example/api/signin/x/callback',
      scope: 'users.read tweet.read',
      state: first.state,
      code_challenge: createHash('sha256').update(first.codeVerifier).digest('base64url'),
      code_challenge_method: 'S256',
    });
    expect(first.codeVerifier).toMatch(/^[A-Za-z0-9_-]{43,128}$/);
    expect(second.state).not.toBe(first.state);
    expect(second.codeVerifier).not.toBe(first.codeVerifier);
  });

  it('is unavailable without configuration', () => {
    expect(() => startXSignIn(null, 'https://mimamori.example/cb')).toThrow(AccountProblem);
  });
});
