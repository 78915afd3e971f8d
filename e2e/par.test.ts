import { describe, expect, it } from 'vitest';
import { FIXED_PKCE } from '@sso/server/test-support';
import { logIn, openPage, withSystem } from './support/journey.ts';

const NET_ANSWER_AUTH = `Basic ${Buffer.from('SIAP004:demo-secret-SIAP004').toString('base64')}`;

/**
 * A pushed authorization request in Chromium (RFC 9126; docs/decisions/0036-pushed-authorization-requests.md):
 * Net Answer's server pushes its request, the member's browser follows the link that carries only
 * client_id and request_uri, signs in on the SPA's login page, and lands at Net Answer with a code
 * its server exchanges; the same link afterwards is the page saying the link is not valid.
 */
describe('a pushed authorization request in Chromium', () => {
  const env = withSystem();

  it('signs the member in through the SPA login page and hands Net Answer one code', async () => {
    const { origin } = env.system;
    const redirectUri = `${origin}/dev/partner/SIAP004/callback`;
    const pushed = await fetch(`${origin}/api/auth/par`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: NET_ANSWER_AUTH },
      body: new URLSearchParams({ response_type: 'code', redirect_uri: redirectUri, scope: 'openid', state: 'par-e2e', code_challenge: FIXED_PKCE.challenge, code_challenge_method: 'S256' }),
    });
    expect(pushed.status, await pushed.clone().text()).toBe(201);
    const { request_uri: requestUri } = (await pushed.json()) as { request_uri: string };
    const link = `/api/auth/authorize?${new URLSearchParams({ client_id: 'SIAP004', request_uri: requestUri }).toString()}`;

    const { context, page, consoleErrors } = await openPage(env);
    await page.goto(link);
    await page.waitForURL(/\/content\/authorize\?/);
    expect(new URL(page.url()).searchParams.get('request_uri')).toBe(requestUri);
    await logIn(page, 'demo.card@example.com', 'Demo1234');
    await page.waitForURL((url) => url.pathname.startsWith('/dev/partner/') || url.pathname === '/content/accept/additional_terms');
    if (new URL(page.url()).pathname === '/content/accept/additional_terms') {
      await page.getByLabel('利用規約を確認、同意しました').check();
      await page.getByRole('button', { name: '同意する' }).click();
      await page.waitForURL((url) => url.pathname.startsWith('/dev/partner/'));
    }
    const landed = new URL(page.url());
    expect(`${landed.origin}${landed.pathname}`).toBe(redirectUri);
    expect(landed.searchParams.get('state')).toBe('par-e2e');

    const tokens = await fetch(`${origin}/api/auth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: NET_ANSWER_AUTH },
      body: new URLSearchParams({ grant_type: 'authorization_code', code: landed.searchParams.get('code') ?? '', redirect_uri: redirectUri, code_verifier: FIXED_PKCE.verifier }),
    });
    expect(tokens.status, await tokens.clone().text()).toBe(200);

    // The request_uri gave its code: the same link again is refused, never redirected to Net Answer.
    const again = await page.goto(link);
    expect(again?.status()).toBe(400);
    expect(new URL(page.url()).pathname).toBe('/api/auth/authorize');
    // The browser logs the 400 it was shown, and nothing else went wrong.
    expect(consoleErrors).toEqual([expect.stringMatching(/status of 400 .*\/api\/auth\/authorize\?client_id=SIAP004&request_uri=/)]);
    await context.close();
  });
});
