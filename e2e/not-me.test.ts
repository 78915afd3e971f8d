import { describe, expect, it } from 'vitest';
import { documentScreen } from './support/browser.ts';
import { logIn, openPage, withSystem } from './support/journey.ts';
import { countMessages, waitForLink, waitForMatch } from './support/mailbox.ts';

const NOT_ME_LINK = /https?:\/\/\S+\/content\/not-me\?token=[A-Za-z0-9_-]+/;

/**
 * The "not me" link of a notice mail (docs/decisions/0033-not-me-link.md): from the new-device
 * sign-in notice in the mailbox to the confirmation page, every session ended, the reset mail, and
 * the link refused once used.
 */
describe('"not me" from a notice mail in Chromium', () => {
  const env = withSystem();

  it('signs the member out everywhere and mails a reset link from the sign-in notice; the used link is refused', async () => {
    const email = 'demo.open@example.com';
    // Someone signs in from a browser the member never used: the member gets the notice.
    const intruder = await openPage(env);
    const mailsBefore = await countMessages(env.system.origin, 'mail', email);
    await intruder.page.goto('/content/');
    await intruder.page.waitForURL(/\/content\/authorize\?/);
    await logIn(intruder.page, email, 'Demo1234');
    await intruder.page.waitForURL(/\/content\/top$/);
    const link = await waitForMatch(env.system.origin, 'mail', email, NOT_ME_LINK, mailsBefore);

    // The member opens the mail's link on a phone: the page says what will happen before anything does.
    const member = await openPage(env, { width: 375, height: 800 });
    await member.page.goto(link);
    await expect.poll(() => member.page.getByRole('heading', { name: 'すべての端末からのログアウト', level: 1 }).count()).toBe(1);
    await documentScreen(member.page, 'not-me');
    const mailsBeforeReset = await countMessages(env.system.origin, 'mail', email);
    await member.page.getByRole('button', { name: 'すべての端末でログアウトする' }).click();
    await expect.poll(() => member.page.getByRole('status').filter({ hasText: 'すべての端末でログアウトしました。' }).count()).toBe(1);
    await documentScreen(member.page, 'not-me-done');

    // The intruder's session is gone: the next page asks to log in again.
    await intruder.page.goto('/content/top');
    await expect.poll(() => intruder.page.getByText('操作を継続できません。お手数ですが再ログインしてください。').count()).toBeGreaterThan(0);

    // The reset mail of the forgot-password flow is in the mailbox.
    expect(await waitForLink(env.system.origin, email, '/content/recover/password', mailsBeforeReset)).toContain('onetime_token=');

    // The link works once: opened again, it is refused with the server's words and shows nothing of the member.
    await member.page.goto(link);
    await member.page.getByRole('button', { name: 'すべての端末でログアウトする' }).click();
    await expect.poll(() => member.page.getByRole('alert').filter({ hasText: 'URLの有効期限が切れているか、既に使用されています。' }).count()).toBe(1);
    await documentScreen(member.page, 'not-me-link-invalid');

    // The refusals (the dead session, the used link) answer HTTP 401 and 400: nothing else may be logged.
    expect([...intruder.consoleErrors, ...member.consoleErrors].filter((e) => !/status of 40[01]/.test(e))).toEqual([]);
    await intruder.context.close();
    await member.context.close();
  });
});
