import { describe, expect, it } from 'vitest';
import { POINT_MESSAGES } from '@sso/contracts/screen-messages';
import { documentScreen } from './support/browser.ts';
import { logInAt, pagePerTest, withSystem } from './support/journey.ts';
import { countMessages, waitForCode } from './support/mailbox.ts';

const OPEN = 'demo.open@example.com';
const CARD = 'demo.card@example.com';
const PASSWORD = 'Demo1234';
/** Demo cards of config/demo-cards.json (docs/demo.md "Demo cards"): point-capable, checked by SMS to the holder's mobile, or by PIN. */
const SMS_CARD = { number: '4541000000000001', cvc: '123', mobile: '09011110001', name: 'メンバーズ ゴールドカード（VISA）' };
const PIN_CARD = { number: '3528000000000003', cvc: '123' };
/** The numberless demo card: no printed number, found by its holder's mobile. */
const NUMBERLESS = { mobile: '09033330301', name: 'メンバーズ ナンバーレスカード（VISA）' };
/** What Top says to an open member with points and no point-capable card (apps/web/src/lib/transfer-eligibility.ts). */
const ADD_CARD_TO_MOVE = 'ポイントが貯まるカードを登録すると、オープン会員のポイントをカードへ移行できます。';

/**
 * An open member adds their card and merges their points (SPEC.md sections 2 and 6: open members
 * are the only kind that can merge points; docs/decisions/0016), in order on one system: Top tells
 * the demo open member (1,200 open points, no card) to add a card instead of offering a transfer
 * that cannot succeed; the numberless and PIN screens; the card added by the SMS code; the points
 * moved to it; then Top has nothing left to offer; a numberless card added by the holder's SMS
 * code. A card member is sent to the all-cards list.
 */
describe('an open member adds a card and moves the open points to it, in Chromium', () => {
  const env = withSystem();
  const j = pagePerTest(env);

  const logInTo = (path: string, id: string) => logInAt(j.page, path, id, PASSWORD);

  const alertWith = (text: string) => j.page.getByRole('alert').filter({ hasText: text });
  /** The flow's step indicator marks the step (ui/steps.tsx), and the document title names the screen as its heading does. */
  async function expectStep(n: number, label: string, title: string) {
    const steps = j.page.getByRole('list', { name: `手続きのステップ ${n}/3` });
    await expect.poll(() => steps.count()).toBe(1);
    expect(await steps.locator('[aria-current="step"]').textContent()).toBe(label);
    await expect.poll(() => j.page.title()).toBe(`${title} | メンバーID`);
  }

  const textCount = (text: string) => j.page.getByText(text, { exact: false }).count();
  const points = () => j.page.getByRole('region', { name: 'ポイント' });

  /** The refusals a journey provokes answer HTTP 400: those, and only those, may be logged. */
  function allowRefusals() {
    j.consoleErrors.splice(0, j.consoleErrors.length, ...j.consoleErrors.filter((e) => !e.includes('status of 400')));
  }

  async function fillCard(card: { number: string; cvc: string }) {
    await j.page.getByLabel('カード番号', { exact: true }).fill(card.number);
    await j.page.getByLabel('有効期限（月）').selectOption('12');
    await j.page.getByLabel('有効期限（年）').selectOption('2030');
    await j.page.getByLabel('セキュリティコード').fill(card.cvc);
  }

  it('sends a card member to the all-cards list from the open member\'s card screens', async () => {
    await logInTo('/subusers/all', CARD);
    await j.page.goto('/content/open/card');
    await j.page.waitForURL(/\/content\/subusers\/all$/);
  });

  it('offers the open member without a card the way to add one, on Top and on the transfer summary', async () => {
    await logInTo('/top', OPEN);
    await expect.poll(() => points().getByText(ADD_CARD_TO_MOVE).count()).toBe(1);
    expect(await points().getByRole('link', { name: 'ポイントをカードへ移行する' }).count()).toBe(0);
    await documentScreen(j.page, 'open-card-top-no-card');

    await j.page.goto('/content/aqf/transfer/open');
    await expect.poll(() => alertWith(POINT_MESSAGES.noEligibleCard).count()).toBe(1);
    await j.page.getByRole('link', { name: 'カードを登録する' }).click();
    await j.page.waitForURL(/\/content\/open\/card$/);
    await expect.poll(() => j.page.getByRole('heading', { level: 1, name: 'カードの登録' }).count()).toBe(1);
  });

  it('shows the numberless card and PIN screens, and refuses a wrong PIN', async () => {
    await logInTo('/open/card', OPEN);
    await j.page.getByRole('link', { name: 'ナンバーレスカードを登録する' }).click();
    await j.page.waitForURL(/\/content\/open\/card\/numberless$/);
    await documentScreen(j.page, 'open-card-numberless');
    await j.page.getByLabel('携帯電話番号').fill('09099990000');
    await j.page.getByRole('button', { name: '送信する' }).click();
    await j.page.waitForURL(/\/content\/open\/card\/numberless\/otp$/);
    await expect.poll(() => textCount('090-****-0000')).toBeGreaterThan(0);
    await documentScreen(j.page, 'open-card-numberless-otp');
    await j.page.getByRole('link', { name: '最初からやり直す' }).click();
    await j.page.waitForURL(/\/content\/open\/card\/numberless$/);

    await j.page.goto('/content/open/card');
    await fillCard(PIN_CARD);
    await j.page.getByRole('button', { name: '次へ' }).click();
    await j.page.waitForURL(/\/content\/open\/card\/pin$/);
    await documentScreen(j.page, 'open-card-pin');
    await j.page.getByLabel('暗証番号', { exact: true }).fill('0000');
    await j.page.getByRole('button', { name: '認証する' }).click();
    await expect.poll(() => alertWith('暗証番号が正しくありません').count()).toBe(1);
    expect(await j.page.getByLabel('暗証番号', { exact: true }).inputValue()).toBe('');
    // A reload keeps the held check (the history state); a check screen without one goes back to the card's first screen.
    await j.page.reload();
    await expect.poll(() => j.page.getByLabel('暗証番号', { exact: true }).count()).toBe(1);
    await j.page.goto('/content/open/card/otp');
    await j.page.waitForURL(/\/content\/open\/card$/);
    allowRefusals();
  });

  it('adds the card by the SMS code, then moves the 1,200 open points to it', async () => {
    await logInTo('/top', OPEN);
    await points().getByRole('link', { name: 'カードを登録する' }).click();
    await j.page.waitForURL(/\/content\/open\/card$/);
    await expect.poll(() => j.page.getByLabel('カード番号', { exact: true }).count()).toBe(1);
    // A card the card master does not know: refused, and the security code cleared.
    await fillCard({ ...SMS_CARD, cvc: '999' });
    await j.page.getByRole('button', { name: '次へ' }).click();
    await expect.poll(() => alertWith('ご入力のカード情報ではご登録いただけません。').count()).toBe(1);
    expect(await j.page.getByLabel('セキュリティコード').inputValue()).toBe('');
    await expectStep(1, 'カード情報', 'カードの登録');
    await documentScreen(j.page, 'open-card');

    await j.page.getByLabel('セキュリティコード').fill(SMS_CARD.cvc);
    const before = await countMessages(env.system.origin, 'sms', SMS_CARD.mobile);
    await j.page.getByRole('button', { name: '次へ' }).click();
    await j.page.waitForURL(/\/content\/open\/card\/otp$/);
    const code = await waitForCode(env.system.origin, 'sms', SMS_CARD.mobile, before);
    await expect.poll(() => textCount('090-****-0001')).toBeGreaterThan(0);
    await expectStep(2, '本人確認', 'カードの登録 ワンタイムパスワードの入力');
    await documentScreen(j.page, 'open-card-otp');
    await j.page.getByLabel('ワンタイムパスワード').fill(code);
    await j.page.getByRole('button', { name: '認証する' }).click();

    await j.page.waitForURL(/\/content\/open\/card\/done$/);
    await expect.poll(() => textCount(SMS_CARD.name)).toBeGreaterThan(0);
    await expect.poll(() => j.page.getByRole('link', { name: 'ポイントをカードへ移行する' }).count()).toBe(1);
    await expectStep(3, '完了', 'カードの登録完了');
    await documentScreen(j.page, 'open-card-done');
    await j.page.getByRole('link', { name: 'ポイントをカードへ移行する' }).click();

    await j.page.waitForURL(/\/content\/aqf\/transfer\/open$/);
    await j.page.getByRole('link', { name: '移行先のカードを選ぶ' }).click();
    await j.page.waitForURL(/\/content\/aqf\/transfer\/open\/select$/);
    const card = j.page.getByRole('radio', { name: `${SMS_CARD.name}（末尾0001）` });
    await expect.poll(() => card.isChecked()).toBe(true);
    const beforeTransfer = await countMessages(env.system.origin, 'sms', SMS_CARD.mobile);
    await j.page.getByRole('button', { name: 'ワンタイムパスワードを送信する' }).click();
    await j.page.waitForURL(/\/content\/aqf\/transfer\/open\/sms\/otp$/);
    const transferCode = await waitForCode(env.system.origin, 'sms', SMS_CARD.mobile, beforeTransfer);
    await j.page.getByLabel('ワンタイムパスワード').fill(transferCode);
    await j.page.getByRole('button', { name: 'ポイントを移行する' }).click();

    await j.page.waitForURL(/\/content\/aqf\/transfer\/open\/done$/);
    // Moved 1,200; the card now holds 1,200 and the open account 0.
    await expect.poll(() => j.page.getByRole('definition').filter({ hasText: '1,200ポイント' }).count()).toBe(2);
    expect(await j.page.getByRole('definition').filter({ hasText: /^0ポイント$/ }).count()).toBe(1);
    await j.page.getByRole('link', { name: 'トップへ戻る' }).click();

    // Nothing left to move: Top says so and offers no transfer; the member is an open member still.
    await j.page.waitForURL(/\/content\/top$/);
    await expect.poll(() => points().getByText(POINT_MESSAGES.zeroBalance).count()).toBe(1);
    expect(await points().getByRole('link').count()).toBe(0);
    expect(await j.page.getByText('プロフィール変更').count()).toBe(1);
    allowRefusals();
  });

  it('adds a numberless card by the SMS code to its holder\'s mobile; with nothing left to move, the done page says so', async () => {
    await logInTo('/open/card/numberless', OPEN);
    const before = await countMessages(env.system.origin, 'sms', NUMBERLESS.mobile);
    await j.page.getByLabel('携帯電話番号').fill(NUMBERLESS.mobile);
    await j.page.getByRole('button', { name: '送信する' }).click();
    await j.page.waitForURL(/\/content\/open\/card\/numberless\/otp$/);
    await j.page.getByLabel('ワンタイムパスワード').fill(await waitForCode(env.system.origin, 'sms', NUMBERLESS.mobile, before));
    await j.page.getByRole('button', { name: '認証する' }).click();
    await j.page.waitForURL(/\/content\/open\/card\/done$/);
    await expect.poll(() => textCount(NUMBERLESS.name)).toBeGreaterThan(0);
    await expect.poll(() => textCount(POINT_MESSAGES.zeroBalance)).toBe(1);
    expect(await j.page.getByRole('link', { name: 'ポイントをカードへ移行する' }).count()).toBe(0);
  });
});
