import { describe, expect, it } from 'vitest';
import { pkce } from '@sso/server/test-support';
import { documentScreen, expectAccessible } from './support/browser.ts';
import { logIn, pagePerTest, withSystem } from './support/journey.ts';

const CARD = { email: 'demo.card@example.com', password: 'Demo1234' };
const { verifier: VERIFIER, challenge: CHALLENGE } = pkce('portal-consent-journey-verifier-0123456789-abcdefgh');

/**
 * Decision 0013: a portal app's hand-off whose challenge came in the page's address is asked for
 * only once the member says go. Any app can open the page with a challenge of its own; without the
 * member's click no token is issued for it (RFC 8252 section 8.6).
 */
describe('a portal hand-off asked for from outside the SPA, in Chromium', () => {
  const env = withSystem();
  const j = pagePerTest(env);

  /** demo.card, logged in, opens the hand-off page as another app would; the token requests it makes are counted. */
  async function openHandOff(): Promise<string[]> {
    await j.page.goto('/content/');
    await j.page.waitForURL(/\/content\/authorize\?/);
    await logIn(j.page, CARD.email, CARD.password);
    await j.page.waitForURL(/\/content\/top$/);
    const issued: string[] = [];
    j.page.on('request', (r) => {
      if (r.url().endsWith('/api/subuser/direct_login/sc')) issued.push(r.url());
    });
    const query = new URLSearchParams({ client_id: 'SIAP005', service_name: 'ポータルアプリ', code_challenge: CHALLENGE, code_challenge_method: 'S256' });
    await j.page.goto(`/content/subuser/redirect/service?${query.toString()}`);
    await j.page.getByRole('button', { name: '「ポータルアプリ」へ移動する' }).waitFor();
    return issued;
  }

  it('waits for the member before issuing the portal token, which then redeems only with the verifier', async () => {
    const issued = await openHandOff();
    await j.page.getByRole('heading', { name: 'ポータルアプリへ移動' }).waitFor();
    await expect.poll(() => j.page.getByText('ログインした状態で「ポータルアプリ」へ移動します。', { exact: false }).count()).toBe(1);
    await expectAccessible(j.page);
    await documentScreen(j.page, 'service-portal-consent');
    expect(issued).toEqual([]);

    const answer = j.page.waitForResponse((r) => r.url().endsWith('/api/subuser/direct_login/sc'));
    await j.page.getByRole('button', { name: '「ポータルアプリ」へ移動する' }).click();
    const body = (await (await answer).json()) as { result_code: number; onetime_token: string };
    expect(body.result_code).toBe(0);
    expect(issued).toHaveLength(1);

    // Only the holder of the verifier gets tokens for the portal app.
    const redeem = (verifier: string) =>
      fetch(`${env.system.origin}/api/auth/direct_login/token`, {
        method: 'POST',
        body: new URLSearchParams({ grant_type: 'password', onetime_token: body.onetime_token, client_id: 'SIAP005', code_verifier: verifier }),
      });
    expect((await redeem(VERIFIER)).status).toBe(200);
    // The page then leaves for the app's custom scheme, which Chromium cannot open here.
    j.consoleErrors.splice(0, j.consoleErrors.length, ...j.consoleErrors.filter((e) => !e.includes('siap005portal')));
  });

  it('hands nothing off when the member goes back to Top instead', async () => {
    const issued = await openHandOff();
    await j.page.getByRole('button', { name: 'トップへ戻る' }).or(j.page.getByRole('link', { name: 'トップへ戻る' })).first().click();
    await j.page.waitForURL(/\/content\/top$/);
    expect(issued).toEqual([]);
  });
});
