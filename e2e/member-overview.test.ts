import { afterEach, describe, expect, it } from 'vitest';
import { documentScreen } from './support/browser.ts';
import { logInAt, openPage, withSystem, type JourneyPage } from './support/journey.ts';

/** LINE's in-app browser on an iPhone, as LINE sends it: most Japanese members open links there. */
const LINE_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Safari Line/14.9.0';

/**
 * What a member comes to their account for (SPEC.md sections 1 and 2): the login and account-change
 * history names the device, LINE's in-app browser by name, and the address of each entry.
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

  it('names LINE and the address in the login and account-change history after a login from LINE\'s in-app browser', async () => {
    j = await openPage(env, { width: 375, height: 800 }, LINE_IPHONE);
    await logInAt(j.page, '/top', 'demo.card@example.com', 'Demo1234');
    await j.page.getByRole('link', { name: 'ログイン・操作履歴' }).click();
    await j.page.waitForURL(/\/content\/user\/activities$/);
    await j.page.getByRole('heading', { level: 1, name: 'ログイン・操作履歴' }).waitFor();
    await expect.poll(() => j!.page.title()).toBe('ログイン・操作履歴 | メンバーID');
    const newest = j.page.getByRole('listitem').first();
    await expect.poll(() => newest.textContent()).toContain('LINE / iPhone');
    expect(await newest.textContent()).toMatch(/IPアドレス(127\.0\.0\.1|::1|::ffff:127\.0\.0\.1)/);
    await documentScreen(j.page, 'user-activities-line');
  });
});
