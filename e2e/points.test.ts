import { describe, expect, it } from 'vitest';
import { LINK_MESSAGES, POINT_MESSAGES } from '@sso/contracts/screen-messages';
import { documentScreen } from './support/browser.ts';
import { logIn, pagePerTest, withSystem } from './support/journey.ts';
import { countMessages, waitForCode } from './support/mailbox.ts';

const CARD = 'demo.card@example.com';
const OPEN = 'demo.open@example.com';
const PASSWORD = 'Demo1234';
/** The holder mobile of the demo card member's card ES0000000001 (config/demo-cards.json): the code comes by SMS. */
const HOLDER_MOBILE = '09000000001';

/**
 * Open-account link and transfer journeys, in order on one system: the demo open member cannot
 * transfer (no card) and is offered adding one (decision 0016); the demo card member links the open
 * account with its password (decision 0014; a missing password, a wrong birthday and a wrong
 * password first), transfers its 1,200 points to the card by the SMS code, and then has nothing
 * left to move; the open login is gone.
 */
describe('open-account link and point transfer in Chromium', () => {
  const env = withSystem();
  const j = pagePerTest(env);

  async function logInToTop(id: string) {
    await j.page.goto('/content/');
    await j.page.waitForURL(/\/content\/authorize\?/);
    await logIn(j.page, id, PASSWORD);
    await j.page.waitForURL(/\/content\/top$/);
  }

  const alertWith = (text: string) => j.page.getByRole('alert').filter({ hasText: text });
  const textCount = (text: string) => j.page.getByText(text, { exact: false }).count();

  /** The refusals a journey provokes answer HTTP 400: those, and only those, may be logged. */
  function allowRefusals() {
    j.consoleErrors.splice(0, j.consoleErrors.length, ...j.consoleErrors.filter((e) => !e.includes('status of 400')));
  }

  it('shows the open member without a card why the points cannot move, and the way to add one', async () => {
    await logInToTop(OPEN);
    // Top offers no transfer that cannot succeed (decision 0016): it offers adding a card.
    await expect.poll(() => j.page.getByRole('region', { name: 'ポイント' }).getByRole('link', { name: 'カードを登録する' }).count()).toBe(1);
    expect(await j.page.getByRole('link', { name: 'ポイントをカードへ移行する' }).count()).toBe(0);
    await j.page.goto('/content/aqf/transfer/open');
    await expect.poll(() => alertWith(POINT_MESSAGES.noEligibleCard).count()).toBe(1);
    expect(await textCount('1,200ポイント')).toBeGreaterThan(0);
    expect(await j.page.getByRole('link', { name: '移行先のカードを選ぶ' }).count()).toBe(0);
    expect(await j.page.getByRole('link', { name: 'カードを登録する' }).count()).toBe(1);
    await documentScreen(j.page, 'points-refused-no-card');
  });

  it('links the open account, moves its points to the card by the SMS code, and has nothing left to move', async () => {
    await logInToTop(CARD);
    // Before the link the card member has no open account.
    await j.page.goto('/content/aqf/transfer/open');
    await expect.poll(() => alertWith(POINT_MESSAGES.openInfoUnavailable).count()).toBe(1);
    await documentScreen(j.page, 'points-refused-open-info');
    await j.page.getByRole('link', { name: 'トップへ戻る' }).click();
    await j.page.waitForURL(/\/content\/top$/);

    await j.page.getByRole('link', { name: 'オープン会員のポイントを連携する' }).click();
    await j.page.waitForURL(/\/content\/link\/open$/);
    await documentScreen(j.page, 'link-open');
    // Full-width input becomes half-width on blur, as on the other forms.
    await j.page.getByLabel('メールアドレス').fill(OPEN);
    await j.page.getByLabel('セイ', { exact: true }).fill('やまだ');
    await j.page.getByLabel('メイ', { exact: true }).fill('ﾊﾅｺ');
    await j.page.getByLabel('生年月日').fill('１９９０/０１/０２');
    await j.page.getByLabel('電話番号').fill('090-0000-0002');
    // Profile data alone links nothing: the open account's password proves it is the member's (decision 0014).
    await j.page.getByRole('button', { name: '連携する' }).click();
    await expect.poll(() => j.page.getByText('入力してください', { exact: true }).count()).toBe(1);
    await j.page.getByLabel('オープン会員のパスワード').fill('Wrong-pass1');
    await j.page.getByRole('button', { name: '連携する' }).click();
    await expect.poll(() => alertWith(LINK_MESSAGES.notMatched).count()).toBe(1);
    expect(await j.page.getByLabel('生年月日').inputValue()).toBe('19900102');
    await documentScreen(j.page, 'link-open-not-matched');
    await j.page.getByLabel('生年月日').fill('19900101');
    const answered = j.page.waitForResponse((r) => r.url().endsWith('/api/link/open'));
    await j.page.getByRole('button', { name: '連携する' }).click();
    // The right profile with a wrong password is answered exactly as a wrong birthday.
    expect(await (await answered).json()).toEqual({ result_code: 902, result_message: LINK_MESSAGES.notMatched });
    await expect.poll(() => alertWith(LINK_MESSAGES.notMatched).count()).toBe(1);
    await j.page.getByLabel('オープン会員のパスワード').fill(PASSWORD);
    await j.page.getByRole('button', { name: '連携する' }).click();

    await j.page.waitForURL(/\/content\/link\/open\/done$/);
    await expect.poll(() => textCount('1,200ポイント')).toBeGreaterThan(0);
    await documentScreen(j.page, 'link-open-done');
    await j.page.getByRole('link', { name: 'ポイントをカードへ移行する' }).click();

    await j.page.waitForURL(/\/content\/aqf\/transfer\/open$/);
    await expect.poll(() => j.page.getByRole('link', { name: '移行先のカードを選ぶ' }).count()).toBe(1);
    expect(await textCount('1,200ポイント')).toBeGreaterThan(0);
    await documentScreen(j.page, 'points-summary');
    await j.page.getByRole('link', { name: '移行先のカードを選ぶ' }).click();

    await j.page.waitForURL(/\/content\/aqf\/transfer\/open\/select$/);
    const card = j.page.getByRole('radio', { name: 'デモ ゴールドカード（末尾0101）' });
    await expect.poll(() => card.count()).toBe(1);
    await card.check();
    await documentScreen(j.page, 'points-select');
    const before = await countMessages(env.system.origin, 'sms', HOLDER_MOBILE);
    await j.page.getByRole('button', { name: 'ワンタイムパスワードを送信する' }).click();

    await j.page.waitForURL(/\/content\/aqf\/transfer\/open\/sms\/otp$/);
    const code = await waitForCode(env.system.origin, 'sms', HOLDER_MOBILE, before);
    await expect.poll(() => textCount('090-****-0001')).toBeGreaterThan(0);
    await documentScreen(j.page, 'points-otp');
    // A wrong code clears the field and says so; the right one moves the points.
    await j.page.getByLabel('ワンタイムパスワード').fill(String((Number(code) + 1) % 1_000_000).padStart(6, '0'));
    await j.page.getByRole('button', { name: 'ポイントを移行する' }).click();
    await expect.poll(() => alertWith('ワンタイムパスワードが正しくありません').count()).toBe(1);
    expect(await j.page.getByLabel('ワンタイムパスワード').inputValue()).toBe('');
    await j.page.getByLabel('ワンタイムパスワード').fill(code);
    await j.page.getByRole('button', { name: 'ポイントを移行する' }).click();

    await j.page.waitForURL(/\/content\/aqf\/transfer\/open\/done$/);
    const moved = j.page.getByRole('definition').filter({ hasText: '1,200ポイント' });
    await expect.poll(() => moved.count()).toBe(2);
    expect(await textCount('0ポイント')).toBeGreaterThan(0);
    await documentScreen(j.page, 'points-done');
    await j.page.getByRole('link', { name: 'トップへ戻る' }).click();

    // Nothing left to move: Top says so instead of offering the transfer; the summary says it too.
    await j.page.waitForURL(/\/content\/top$/);
    await expect.poll(() => j.page.getByRole('region', { name: 'ポイント' }).getByText(POINT_MESSAGES.zeroBalance).count()).toBe(1);
    expect(await j.page.getByRole('link', { name: 'ポイントをカードへ移行する' }).count()).toBe(0);
    await j.page.goto('/content/aqf/transfer/open');
    await expect.poll(() => alertWith(POINT_MESSAGES.zeroBalance).count()).toBe(1);
    await documentScreen(j.page, 'points-refused-zero');
    allowRefusals();
  });

  it('no longer lets the linked open member log in', async () => {
    await j.page.goto('/content/');
    await j.page.waitForURL(/\/content\/authorize\?/);
    await logIn(j.page, OPEN, PASSWORD);
    await expect.poll(() => alertWith('IDまたはパスワードが正しくありません。').count()).toBe(1);
    allowRefusals();
  });
});
