import { describe, expect, it } from 'vitest';
import { documentScreen } from './support/browser.ts';
import { logInAt, pagePerTest, withSystem } from './support/journey.ts';

const CARD_MEMBER = 'demo.card@example.com';
const OPEN_MEMBER = 'demo.open@example.com';
const PASSWORD = 'Demo1234';
/** The demo card holder H0000001's waiting cards and a card of holder H0000002 (docs/demo.md "Demo cards"). */
const UNACTIVATED_4Z = 'デモ クラシックカード（Mastercard）';
const INACTIVE = 'デモ カード（JCB）';
const BY_NUMBER = 'メンバーズ ゴールドカード（VISA）';

/**
 * Card journeys (decision 0006), in order on one system (the card master simulator keeps its
 * changes): the demo card member adds and activates a waiting card, enables and adds another, adds
 * one by number and activates it, and removes one through the confirm dialog; an open member sees
 * the empty list.
 */
describe('cards in Chromium', () => {
  const env = withSystem();
  const j = pagePerTest(env);

  const logInTo = (path: string, id: string) => logInAt(j.page, path, id, PASSWORD);

  /** The registered cards' section of /subusers/all. */
  const registered = () => j.page.getByRole('region', { name: '登録カード' });
  const notice = () => j.page.getByRole('status');

  /** Refusals (902) answer HTTP 400, which Chromium logs: those, and only those, are expected. */
  function allowRefusals() {
    j.consoleErrors.splice(0, j.consoleErrors.length, ...j.consoleErrors.filter((e) => !e.includes('status of 400')));
  }

  /** From the card's 有効化する link to the all-cards list, trying `wrong` first when given. */
  async function activate(cardName: string, key: string, document?: string) {
    await j.page.getByRole('link', { name: `${cardName}を有効化する` }).click();
    await j.page.waitForURL(/\/content\/subuser\/activate\?subuser_id=/);
    await expect.poll(() => j.page.getByText(cardName).count()).toBeGreaterThan(0);
    if (document) await documentScreen(j.page, document);
    await j.page.getByLabel('認証キー').fill(key);
    await j.page.getByRole('button', { name: '有効化する' }).click();
    await j.page.waitForURL(/\/content\/subusers\/all$/);
    await expect.poll(() => notice().textContent()).toBe('カードを有効化しました。');
  }

  it('serves the card faces the card master names', async () => {
    for (const name of ['visa-gold', 'demo-gold', 'mastercard-classic', 'jcb-classic', 'amex-platinum', 'house', 'visa-numberless']) {
      const res = await fetch(`${env.system.origin}/content/cards/${name}.svg`);
      expect(res.status, name).toBe(200);
      expect(res.headers.get('content-type'), name).toContain('image/svg+xml');
    }
  });

  it('adds the waiting unactivated card and activates it with the inquiry number; a wrong key first shows the message', async () => {
    await logInTo('/top', CARD_MEMBER);
    await j.page.getByRole('link', { name: 'カードを追加する' }).click();
    await j.page.waitForURL(/\/content\/subusers\/all$/);
    await expect.poll(() => registered().getByText('デモ ゴールドカード').count()).toBe(1);
    await expect.poll(() => j.page.getByRole('button', { name: `${UNACTIVATED_4Z}を追加する` }).count()).toBe(1);
    // Every card face loaded (the SPA's static files under /content/cards).
    await expect.poll(() => j.page.locator('img').evaluateAll((imgs) => imgs.every((i) => (i as HTMLImageElement).naturalWidth > 0))).toBe(true);
    await documentScreen(j.page, 'cards-all');

    await j.page.getByRole('button', { name: `${UNACTIVATED_4Z}を追加する` }).click();
    await expect.poll(() => notice().textContent()).toBe('カードを追加しました。ご利用にはカードの有効化が必要です。');
    await expect.poll(() => registered().getByText(UNACTIVATED_4Z).count()).toBe(1);

    await j.page.goto('/content/subusers/unactivated');
    await expect.poll(() => j.page.getByRole('link', { name: `${UNACTIVATED_4Z}を有効化する` }).count()).toBe(1);
    await documentScreen(j.page, 'cards-unactivated');

    await j.page.getByRole('link', { name: `${UNACTIVATED_4Z}を有効化する` }).click();
    await j.page.waitForURL(/\/content\/subuser\/activate\?subuser_id=/);
    await expect.poll(() => j.page.getByText('お問い合わせ番号の下6桁', { exact: false }).count()).toBe(1);
    await documentScreen(j.page, 'cards-activate');
    await j.page.getByLabel('認証キー').fill('000000');
    await j.page.getByRole('button', { name: '有効化する' }).click();
    await expect.poll(() => j.page.getByRole('alert').textContent()).toBe('認証キーが正しくありません。もう一度ご入力ください。');
    expect(await j.page.getByLabel('認証キー').inputValue()).toBe('');
    await documentScreen(j.page, 'cards-activate-wrong');
    await j.page.getByLabel('認証キー').fill('123456');
    await j.page.getByRole('button', { name: '有効化する' }).click();
    await j.page.waitForURL(/\/content\/subusers\/all$/);
    await expect.poll(() => notice().textContent()).toBe('カードを有効化しました。');
    await expect.poll(() => registered().getByRole('listitem').filter({ hasText: UNACTIVATED_4Z }).getByText('ご利用中').count()).toBe(1);
    allowRefusals();
  });

  it('enables and adds the inactive waiting card', async () => {
    await logInTo('/subusers/all', CARD_MEMBER);
    await j.page.getByRole('button', { name: `${INACTIVE}を有効にして追加する` }).click();
    await expect.poll(() => notice().textContent()).toBe('カードを追加しました。');
    await expect.poll(() => registered().getByRole('listitem').filter({ hasText: INACTIVE }).getByText('ご利用中').count()).toBe(1);
    await expect.poll(() => j.page.getByRole('region', { name: '追加できるカード' }).count()).toBe(0);
  });

  it('adds a card by number, hiding the security code for a house card, and activates it with the last 6 digits', async () => {
    await logInTo('/subusers/all', CARD_MEMBER);
    const cvc = j.page.getByLabel('セキュリティコード');
    await j.page.getByLabel('カード番号', { exact: true }).fill('0300000000000204');
    await expect.poll(() => cvc.count()).toBe(0);
    await j.page.getByLabel('カード番号', { exact: true }).fill('4541000000000201');
    await j.page.getByLabel('有効期限（月）').selectOption('12');
    await j.page.getByLabel('有効期限（年）').selectOption('2030');
    await cvc.fill('999');
    await j.page.getByRole('button', { name: 'カードを追加する' }).click();
    await expect.poll(() => j.page.getByRole('alert').textContent()).toContain('ご入力のカード情報ではご登録いただけません。');
    // The refused security code is cleared; the member types it again.
    expect(await cvc.inputValue()).toBe('');
    await cvc.fill('123');
    await j.page.getByRole('button', { name: 'カードを追加する' }).click();
    await expect.poll(() => notice().textContent()).toBe('カードを追加しました。ご利用にはカードの有効化が必要です。');
    expect(await j.page.getByLabel('カード番号', { exact: true }).inputValue()).toBe('');
    await activate(BY_NUMBER, '000201');
    allowRefusals();
  });

  it('removes a card through the confirm dialog and shows the list without it', async () => {
    await logInTo('/subuser/remove', CARD_MEMBER);
    await expect.poll(() => j.page.getByRole('checkbox').count()).toBe(4);
    await j.page.getByRole('button', { name: '削除する' }).click();
    await expect.poll(() => j.page.getByRole('alert').textContent()).toBe('カードを選択してください');
    await documentScreen(j.page, 'cards-remove');
    await j.page.getByLabel(INACTIVE).check();
    await j.page.getByRole('button', { name: '削除する' }).click();
    const dialog = j.page.getByRole('dialog', { name: 'カードを削除しますか？' });
    await expect.poll(() => dialog.isVisible()).toBe(true);
    await expect.poll(() => dialog.getByText(INACTIVE).count()).toBe(1);
    await documentScreen(j.page, 'cards-remove-dialog');
    await dialog.getByRole('button', { name: '削除する' }).click();
    await j.page.waitForURL(/\/content\/subusers\/all$/);
    await expect.poll(() => notice().textContent()).toBe('カードを削除しました。');
    await expect.poll(() => registered().getByText(UNACTIVATED_4Z).count()).toBe(1);
    await expect.poll(() => registered().getByText(INACTIVE).count()).toBe(0);
    // Removed from the account, the card waits to be added again.
    await expect.poll(() => j.page.getByRole('button', { name: `${INACTIVE}を追加する` }).count()).toBe(1);
    await documentScreen(j.page, 'cards-all-after-remove');
  });

  it('lists the registered cards on the user page', async () => {
    await logInTo('/user', CARD_MEMBER);
    for (const name of ['デモ ゴールドカード', UNACTIVATED_4Z, BY_NUMBER]) {
      await expect.poll(() => j.page.getByRole('region', { name: '登録カード' }).getByText(name).count(), { message: name }).toBe(1);
    }
    await documentScreen(j.page, 'cards-user');
  });

  it('shows an open member the empty list, and the activation without subuser_id goes to the list', async () => {
    await logInTo('/subusers/all', OPEN_MEMBER);
    await expect.poll(() => j.page.getByText('登録されているカードはありません。').count()).toBe(1);
    await expect.poll(() => j.page.getByText('オープン会員の方は、「カードを登録する」からご本人様確認のうえカードをご登録ください。').count()).toBe(1);
    expect(await j.page.getByLabel('カード番号', { exact: true }).count()).toBe(0);
    // Open members add a card through the holder check (decision 0016).
    expect(await j.page.getByRole('link', { name: 'カードを登録する' }).getAttribute('href')).toBe('/content/open/card');
    await documentScreen(j.page, 'cards-empty');
    await j.page.goto('/content/subuser/activate');
    await j.page.waitForURL(/\/content\/subusers\/all$/);
  });
});
