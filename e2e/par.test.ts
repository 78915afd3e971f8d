import { describe, expect, it } from 'vitest';
import { FIXED_PKCE } from '@sso/server/test-support';
import { logIn, openPage, withSystem } from './support/journey.ts';
import { waitForCode } from './support/mailbox.ts';

const NET_ANSWER_AUTH = `Basic ${Buffer.from('SIAP004:demo-secret-SIAP004').toString('base64')}`;

/** Net Answer's server pushes its request (RFC 9126 section 2) and sends the browser to the link that carries client_id and request_uri only. */
async function pushedLink(origin: string, state: string): Promise<{ link: string; requestUri: string; redirectUri: string }> {
  const redirectUri = `${origin}/dev/partner/SIAP004/callback`;
  const pushed = await fetch(`${origin}/api/auth/par`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: NET_ANSWER_AUTH },
    body: new URLSearchParams({ response_type: 'code', redirect_uri: redirectUri, scope: 'openid', state, code_challenge: FIXED_PKCE.challenge, code_challenge_method: 'S256' }),
  });
  expect(pushed.status, await pushed.clone().text()).toBe(201);
  const { request_uri: requestUri } = (await pushed.json()) as { request_uri: string };
  return { link: `/api/auth/authorize?${new URLSearchParams({ client_id: 'SIAP004', request_uri: requestUri }).toString()}`, requestUri, redirectUri };
}

/** Net Answer's server exchanges the code it was handed, with its PKCE verifier. */
async function exchangeAtNetAnswer(origin: string, landed: URL, redirectUri: string) {
  expect(`${landed.origin}${landed.pathname}`).toBe(redirectUri);
  const tokens = await fetch(`${origin}/api/auth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: NET_ANSWER_AUTH },
    body: new URLSearchParams({ grant_type: 'authorization_code', code: landed.searchParams.get('code') ?? '', redirect_uri: redirectUri, code_verifier: FIXED_PKCE.verifier }),
  });
  expect(tokens.status, await tokens.clone().text()).toBe(200);
}

/**
 * A pushed authorization request in Chromium (RFC 9126; docs/decisions/0036-pushed-authorization-requests.md):
 * Net Answer's server pushes its request, the member's browser follows the link that carries only
 * client_id and request_uri, signs in on the SPA's login page, and lands at Net Answer with a code
 * its server exchanges; the same link afterwards is the page saying the link is not valid. A new
 * member signs up by card from such a link, and the sign-up's code is the request's one code.
 */
describe('a pushed authorization request in Chromium', () => {
  const env = withSystem();

  it('signs the member in through the SPA login page and hands Net Answer one code', async () => {
    const { origin } = env.system;
    const { link, requestUri, redirectUri } = await pushedLink(origin, 'par-e2e');

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
    expect(landed.searchParams.get('state')).toBe('par-e2e');
    await exchangeAtNetAnswer(origin, landed, redirectUri);

    // The request_uri gave its code: the same link again is refused, never redirected to Net Answer.
    const again = await page.goto(link);
    expect(again?.status()).toBe(400);
    expect(new URL(page.url()).pathname).toBe('/api/auth/authorize');
    // The browser logs the 400 it was shown, and nothing else went wrong.
    expect(consoleErrors).toEqual([expect.stringMatching(/status of 400 .*\/api\/auth\/authorize\?client_id=SIAP004&request_uri=/)]);
    await context.close();
  });

  it('signs a new member up by card from the same kind of link, carrying client_id and request_uri through every screen, and hands Net Answer one code', async () => {
    const { origin } = env.system;
    const { link, requestUri, redirectUri } = await pushedLink(origin, 'par-signup');
    const email = 'pushed.signup@example.com';
    const password = 'Signup2026';

    const { context, page, consoleErrors } = await openPage(env);
    await page.goto(link);
    await page.waitForURL(/\/content\/authorize\?/);
    await page.getByRole('link', { name: 'カードで新規登録' }).click();
    await page.waitForURL(/\/content\/signup\/card\?/);
    // The sign-up page's URL is the partner's link's: client_id and request_uri, nothing that was pushed.
    expect(Object.fromEntries(new URL(page.url()).searchParams)).toEqual({ client_id: 'SIAP004', request_uri: requestUri });
    await page.waitForLoadState('networkidle');
    await page.getByLabel('メールアドレス').fill(email);
    await page.getByLabel('パスワード', { exact: true }).fill(password);
    await page.getByLabel('パスワード（確認用）').fill(password);
    await page.getByLabel('カード番号').fill('5252000000000002');
    await page.getByLabel('有効期限（月）').selectOption('12');
    await page.getByLabel('有効期限（年）').selectOption('2030');
    await page.getByLabel('セキュリティコード').fill('123');
    await page.getByLabel('書面の電子交付（ペーパーレス）について確認し、同意しました').check();
    const cardStep = page.waitForRequest((r) => r.url().endsWith('/api/signup/card'));
    await page.getByRole('button', { name: '次へ' }).click();
    const sent = (await cardStep).postDataJSON() as Record<string, unknown>;
    expect([sent.client_id, sent.request_uri, sent.redirect_uri, sent.code_challenge]).toEqual(['SIAP004', requestUri, undefined, undefined]);

    await page.waitForURL(/\/content\/signup\/email\/otp$/);
    await page.getByLabel('ワンタイムパスワード').fill(await waitForCode(origin, 'mail', email));
    await page.getByRole('button', { name: '認証する' }).click();
    await page.waitForURL(/\/content\/accept\/terms$/);
    const handOff = page.waitForRequest((r) => r.url().includes('/api/signup/authorize'));
    await page.getByLabel('利用規約を確認、同意しました').check();
    await page.getByRole('button', { name: '登録する' }).click();
    // The hidden form carries the two unchanged; the server reads the rest from what Net Answer pushed.
    expect(Object.fromEntries(new URL((await handOff).url()).searchParams)).toEqual({ client_id: 'SIAP004', request_uri: requestUri });
    await page.waitForURL((url) => url.pathname.startsWith('/dev/partner/'));
    const landed = new URL(page.url());
    expect(landed.searchParams.get('state')).toBe('par-signup');
    await exchangeAtNetAnswer(origin, landed, redirectUri);

    // Used up by the sign-up's code: the link again is the 400 page.
    expect((await page.goto(link))?.status()).toBe(400);
    expect(consoleErrors).toEqual([expect.stringMatching(/status of 400 .*\/api\/auth\/authorize\?client_id=SIAP004&request_uri=/)]);
    await context.close();
  });
});
