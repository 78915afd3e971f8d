import { describe, expect, it } from 'vitest';
import { loginPath, logoLinks } from './logo-link.ts';
import type { OAuthClientRecord } from '../lib/records.ts';

describe('the header logo (SPEC.md section 2)', () => {
  it('has no link on the out-of-service and app-did-not-open error pages for a logged-out visitor', () => {
    for (const path of ['/503', '/problem/busy', '/problem/busy/']) expect(logoLinks(path, false), path).toBe(false);
  });

  it('links there for a logged-in member: the logged-in header, its logo to Top', () => {
    for (const path of ['/503', '/problem/busy']) expect(logoLinks(path, true), path).toBe(true);
  });

  it('links on every other page, the other error pages included', () => {
    for (const path of ['/', '/authorize', '/top', '/404', '/500', '/problem/signup/card/chatbot', '/problem/busy/x'])
      expect(logoLinks(path, false), path).toBe(true);
  });

  it('logged out, goes to the login route itself with the saved client, or the bare login route before one is saved', () => {
    const client: OAuthClientRecord = {
      clientId: 'SIAP009',
      redirectUri: 'http://sso.test/content/oauth/callback',
      state: 's',
      scope: 'openid',
      responseType: 'code',
      codeVerifier: 'v',
      codeChallenge: 'c',
      codeChallengeMethod: 'S256',
    };
    expect(loginPath(client)).toBe(
      '/authorize?client_id=SIAP009&redirect_uri=http%3A%2F%2Fsso.test%2Fcontent%2Foauth%2Fcallback&state=s&scope=openid&response_type=code&code_challenge=c&code_challenge_method=S256',
    );
    expect(loginPath(undefined)).toBe('/authorize');
  });
});
