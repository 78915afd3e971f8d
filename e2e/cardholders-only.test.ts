import { describe, expect, it } from 'vitest';
import { documentScreen, expectAccessible } from './support/browser.ts';
import { logIn, logInAt, pagePerTest, partnerAuthorizePath, withSystem } from './support/journey.ts';
import { waitForLink } from './support/mailbox.ts';

const REFUSED = 'LINE公式アカウントサービスは、当社のクレジットカードをお持ちの方のみご利用いただけます。';
const NOT_YET = 'メールアドレスで登録したオープン会員の方は、このままではLINE公式アカウントサービスをご利用いただけません。';
const PASSWORD = 'Open-2026!';

/**
 * SPEC.md section 6: only cardholders use the line answer (SIAP002). An open member who comes from
 * it is told so in the SPA, never at the partner, and goes on to the ID's Top where a card is added;
 * an open sign-up started from it says so before registering and on the finish page.
 */
describe('the line answer is for cardholders only, in Chromium', () => {
  const env = withSystem();
  const j = pagePerTest(env);
  /** The SPA's login for the line answer's request, as the partner sends the member there. */
  const lineAuthorize = () => partnerAuthorizePath(env.system.origin, 'SIAP002', 'line-state');
  /** The browser logs the refusals' HTTP 400 answers; they are what the test expects. */
  const expect400s = () => j.consoleErrors.splice(0, j.consoleErrors.length, ...j.consoleErrors.filter((e) => !e.includes('status of 400')));

  it('refuses the open member coming from the line answer with the message, and lets them go on to Top', async () => {
    await j.page.goto(lineAuthorize());
    await logIn(j.page, 'demo.open@example.com', 'Demo1234');
    await j.page.waitForURL(/\/content\/problem\/cardholders$/);
    await expect.poll(() => j.page.getByRole('alert').filter({ hasText: REFUSED }).count()).toBe(1);
    await expect.poll(() => j.page.getByText('カードの登録は、メンバーIDのトップページから行えます。').count()).toBe(1);
    await documentScreen(j.page, 'cardholders-only');
    // Never the partner: the member is still in the SPA, and goes on to log in to the ID itself.
    expect(new URL(j.page.url()).pathname.startsWith('/dev/partner/')).toBe(false);
    await j.page.getByRole('link', { name: 'ログインへ' }).click();
    await j.page.waitForURL(/\/content\/authorize\?.*client_id=SIAP009/);
    await logIn(j.page, 'demo.open@example.com', 'Demo1234');
    await j.page.waitForURL(/\/content\/top$/);

    // Logged in, the hand-off to the line answer is refused the same way, and the way on is Top.
    await j.page.goto(`/content/subuser/redirect/service?${new URLSearchParams({ client_id: 'SIAP002', service_name: 'LINE公式アカウントサービス' })}`);
    await j.page.waitForURL(/\/content\/problem\/cardholders$/);
    await expect.poll(() => j.page.getByRole('alert').filter({ hasText: REFUSED }).count()).toBe(1);
    await expectAccessible(j.page);
    await j.page.getByRole('link', { name: 'トップへ' }).click();
    await j.page.waitForURL(/\/content\/top$/);
    expect400s();
  });

  it('refuses the open member who follows the line answer\'s link with a live single sign-on session, before any terms', async () => {
    // Logged in to the ID first: the browser holds an SSO session (decision 0026).
    await logInAt(j.page, '/top', 'demo.open@example.com', 'Demo1234');
    await j.page.waitForURL(/\/content\/top$/);
    const termsShown: string[] = [];
    j.page.on('framenavigated', (frame) => {
      if (frame === j.page.mainFrame() && new URL(frame.url()).pathname.includes('terms')) termsShown.push(frame.url());
    });
    // The partner's link, as the line answer sends the member: the session answers it without a form,
    // and a member without a card is refused before the service's terms (SPEC.md sections 4 and 6).
    await j.page.goto(lineAuthorize());
    await j.page.waitForURL(/\/content\/problem\/cardholders$/);
    await expect.poll(() => j.page.getByRole('alert').filter({ hasText: REFUSED }).count()).toBe(1);
    expect(await j.page.getByRole('heading', { name: '利用規約' }).count()).toBe(0);
    expect(termsShown).toEqual([]);
    expect(new URL(j.page.url()).pathname.startsWith('/dev/partner/')).toBe(false);
    expect400s();
  });

  it('an open sign-up from the line answer shows its terms and the conditions, says it before and after, and offers no way to it', async () => {
    const email = 'open.line@example.com';
    await j.page.goto('/content/signup/open?client_id=SIAP002');
    await expect.poll(() => j.page.getByRole('heading', { name: 'メールアドレスで新規登録', level: 1 }).count()).toBe(1);
    await expect.poll(() => j.page.getByRole('note').filter({ hasText: NOT_YET }).count()).toBe(1);
    // The ID's two terms and the line answer's three (SPEC.md section 3), and the open-member conditions (section 6).
    expect(await j.page.locator('textarea[readonly]').count()).toBe(5);
    expect(await j.page.getByText('LINE公式アカウントサービス 重要事項').count()).toBeGreaterThan(0);
    for (const condition of ['満12歳以上の方（中学生の方を除きます）', '日本国内にお住まいの方', '法人または反社会的勢力に該当しない方', 'ご本人名義のメールアドレスをログインIDとしてご利用になる方']) {
      expect(await j.page.getByText(condition).count(), condition).toBe(1);
    }
    await documentScreen(j.page, 'open-signup-input-line');

    await j.page.getByLabel('メールアドレス').fill(email);
    // A name over 19 characters as a whole is refused next to the name fields (SPEC.md section 5).
    await j.page.getByLabel('姓', { exact: true }).fill('山'.repeat(10));
    await j.page.getByLabel('名', { exact: true }).fill('子'.repeat(10));
    await j.page.getByLabel('名', { exact: true }).blur();
    await expect.poll(() => j.page.getByText('お名前は姓と名をあわせて19文字以内で入力してください').count()).toBe(1);
    await j.page.getByLabel('名', { exact: true }).fill('花子');
    await j.page.getByLabel('名', { exact: true }).blur();
    await expect.poll(() => j.page.getByText('お名前は姓と名をあわせて19文字以内で入力してください').count()).toBe(0);
    await j.page.getByLabel('姓', { exact: true }).fill('山田');
    await j.page.getByLabel('セイ', { exact: true }).fill('ヤマダ');
    await j.page.getByLabel('メイ', { exact: true }).fill('ハナコ');
    await j.page.getByLabel('女性').check();
    await j.page.getByLabel('生年月日').fill('20000101');
    await j.page.getByLabel('郵便番号').fill('1000001');
    await j.page.getByLabel('電話番号').fill('09055550002');
    await j.page.getByLabel('パスワード', { exact: true }).fill(PASSWORD);
    await j.page.getByLabel('パスワード（確認用）').fill(PASSWORD);
    await j.page.getByLabel('利用規約を確認、同意しました').check();
    await j.page.getByRole('button', { name: '確認する' }).click();
    await j.page.getByRole('button', { name: '登録する' }).click();
    await j.page.waitForURL(/\/content\/signup\/open\/sent$/);

    await j.page.goto(await waitForLink(env.system.origin, email, '/content/signup/open/activate'));
    await j.page.waitForURL(/\/content\/signup\/open\/done$/);
    await expect.poll(() => j.page.getByRole('note').filter({ hasText: NOT_YET }).count()).toBe(1);
    expect(await j.page.getByRole('link', { name: 'LINE公式アカウントサービスに戻る' }).count()).toBe(0);
    await documentScreen(j.page, 'open-signup-done-line');
    // The way on: log in to the ID, whose Top is where a card is added.
    await j.page.getByRole('link', { name: 'ログインする' }).click();
    await j.page.waitForURL(/\/content\/authorize\?.*client_id=SIAP009/);
    await logIn(j.page, email, PASSWORD);
    await j.page.waitForURL(/\/content\/top$/);
  });
});
