import { afterEach, describe, expect, it } from 'vitest';
import { POINT_MESSAGES } from '@sso/contracts/screen-messages';
import { documentScreen } from './support/browser.ts';
import { logInAt, openPage, withSystem, type JourneyPage } from './support/journey.ts';

/** LINE's in-app browser on an iPhone, as LINE sends it: most Japanese members open links there. */
const LINE_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Safari Line/14.9.0';

/** The Yahoo! JAPAN app's in-app browser on Android, as the app sends it. */
const YAHOO_ANDROID =
  'Mozilla/5.0 (Linux; Android 14; SC-53C Build/UP1A.231005.007; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/120.0.6099.230 Mobile Safari/537.36 YJApp-ANDROID jp.co.yahoo.android.yjtop/4.10.0';

/**
 * What a member comes to their account for (SPEC.md sections 1 and 2): Top greets them by name and
 * shows their cards, points and previous login with its device; the login and account-change history
 * names the device, LINE's in-app browser by name, and the address of each entry.
 */
describe('the member overview in Chromium', () => {
  const env = withSystem();
  let j: JourneyPage | undefined;
  afterEach(async () => {
    const errors = [...(j?.consoleErrors ?? [])];
    await j?.context.close();
    j = undefined;
    expect(errors).toEqual([]);
  });

  it('greets a card member by the cardholder name on Top, with the card and the previous login from LINE\'s in-app browser', async () => {
    j = await openPage(env, { width: 375, height: 800 }, LINE_IPHONE);
    await logInAt(j.page, '/top', 'demo.card@example.com', 'Demo1234');
    await j.context.close();
    j = await openPage(env);
    await logInAt(j.page, '/top', 'demo.card@example.com', 'Demo1234');
    await j.page.getByText('佐藤 太郎様', { exact: true }).waitFor();
    const info = j.page.locator('dl').first();
    await expect.poll(() => info.textContent()).toMatch(/前回ログイン日時\d{4}年\d{1,2}月\d{1,2}日 \d{2}:\d{2}前回ログインの端末LINE \/ iPhone/);
    const cards = j.page.getByRole('region', { name: 'カード' });
    expect(await cards.getByText('4541-****-****-0101', { exact: true }).count()).toBe(1);
    // A card member without an open account: no balance to show, the link to one offered.
    const points = j.page.getByRole('region', { name: 'ポイント' });
    expect(await points.getByRole('link', { name: 'オープン会員のポイントを連携する' }).count()).toBe(1);
    await documentScreen(j.page, 'top-card-member');
  });

  it('greets an open member by the profile name on Top, with the open points', async () => {
    j = await openPage(env);
    await logInAt(j.page, '/top', 'demo.open@example.com', 'Demo1234');
    await j.page.getByText('山田 花子様', { exact: true }).waitFor();
    const points = j.page.getByRole('region', { name: 'ポイント' });
    await expect.poll(() => points.getByText('1,200ポイント', { exact: true }).count()).toBe(1);
    expect(await j.page.getByRole('region', { name: 'カード' }).getByText('登録されているカードはありません。').count()).toBe(1);
    await documentScreen(j.page, 'top-open-member');
  });

  it('says in Japanese that the points could not be read when the point ledger is down, and shows the rest of Top', async () => {
    j = await openPage(env);
    // The summary as the server answers it with the ledger down (apps/server/src/modules/top/top.test.ts shows the server's side).
    await j.page.route('**/api/user/top', async (route) => {
      const answer = await route.fetch();
      await route.fulfill({ response: answer, json: { ...(await answer.json()), points: { state: 'unavailable' } } });
    });
    await logInAt(j.page, '/top', 'demo.open@example.com', 'Demo1234');
    await j.page.getByText('山田 花子様', { exact: true }).waitFor();
    const points = j.page.getByRole('region', { name: 'ポイント' });
    await expect.poll(() => points.getByRole('status').textContent()).toBe(POINT_MESSAGES.balanceUnavailable);
    expect(await points.getByText('ポイント', { exact: false }).filter({ hasText: /\d+ポイント/ }).count()).toBe(0);
    expect(await j.page.getByRole('link', { name: 'ログイン・操作履歴' }).count()).toBe(1);
    await documentScreen(j.page, 'top-points-unavailable');
  });

  // The two in-app browsers most Japanese members open links in, each named in the history.
  it.each([
    { app: 'LINE', userAgent: LINE_IPHONE, device: 'LINE / iPhone', screen: 'user-activities-line' },
    { app: 'the Yahoo! JAPAN app', userAgent: YAHOO_ANDROID, device: 'Yahoo! JAPAN / Android', screen: undefined },
  ])('names $app and the address in the login and account-change history after a login from its in-app browser', async ({ userAgent, device, screen }) => {
    j = await openPage(env, { width: 375, height: 800 }, userAgent);
    await logInAt(j.page, '/top', 'demo.card@example.com', 'Demo1234');
    await j.page.getByRole('link', { name: 'ログイン・操作履歴' }).click();
    await j.page.waitForURL(/\/content\/user\/activities$/);
    await j.page.getByRole('heading', { level: 1, name: 'ログイン・操作履歴' }).waitFor();
    await expect.poll(() => j!.page.title()).toBe('ログイン・操作履歴 | メンバーID');
    const newest = j.page.getByRole('listitem').first();
    await expect.poll(() => newest.textContent()).toContain(device);
    expect(await newest.textContent()).toMatch(/IPアドレス(127\.0\.0\.1|::1|::ffff:127\.0\.0\.1)/);
    if (screen) await documentScreen(j.page, screen);
  });
});
