import { describe, expect, it } from 'vitest';
import { eventRows, loggedInMember, UA } from '../../test-support/account-change-kit.ts';
import { mailsTo, waitForMails } from '../../test-support/mailbox.ts';
import { addPasskey, LoginBrowser, newAuthenticator } from '../../test-support/passkey-kit.ts';
import { authorizeQuery, TEST_ORIGIN, withTestApp, type TestApp } from '../../test-support/test-app.ts';
import { DIALECTS } from '../../test-support/test-db.ts';

const SUBJECT = '新しい端末からのログインのお知らせ';

/** The login form's post from a browser holding `cookie` (or none): the answer and the device cookie it sets. */
async function loginFrom(t: TestApp, p: { email: string; password: string; cookie?: string; ticket?: string; headers?: Record<string, string> }) {
  const form = new URLSearchParams({ user_mail: p.email, user_pass: p.password, recaptcha_token: 'test' });
  if (p.ticket) form.set('login_ticket', p.ticket);
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/auth/authorize?${authorizeQuery()}`,
    // The SPA's hidden form, which its browser sends with the issuer's Origin (http/own-origin-post.ts).
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': UA, origin: TEST_ORIGIN, ...(p.cookie ? { cookie: p.cookie } : {}), ...p.headers },
    payload: form.toString(),
  });
  expect(new URL(res.headers.location as string).searchParams.get('code'), String(res.headers.location)).toBeTruthy();
  // The device cookie among those set (the SSO session's is set beside it: decision 0026).
  const set = [res.headers['set-cookie'] ?? []].flat();
  return { res, cookie: set.find((c) => c.startsWith('sso_device='))?.split(';')[0] };
}

const notices = async (t: TestApp, email: string) => (await mailsTo(t.app, email)).filter((m) => m.subject?.includes(SUBJECT));

/**
 * The sign-in notice (decision 0024): a sign-in by password or passkey from a browser the member has
 * not signed in from mails the time, the device and the activity log's address, once per browser.
 */
describe.each(DIALECTS)('new-device sign-in notice (%s)', (dialect) => {
  const t = withTestApp(dialect, { LOGIN_NOTICE: 'true' });

  it('mails and logs a sign-in from a new browser once, and again for another browser; the device cookie is HttpOnly', async () => {
    const member = await loggedInMember(t);
    // loggedInMember signed in from a browser without cookies: that was a new one.
    await waitForMails(t.app, member.email, 1);
    const first = await loginFrom(t, member);
    expect(first.cookie).toMatch(/^sso_device=[A-Za-z0-9_-]{43}$/);
    expect(String(first.res.headers['set-cookie'])).toMatch(/sso_device=[^,]*HttpOnly/);
    await waitForMails(t.app, member.email, 2);
    const [mail] = await notices(t, member.email);
    expect(mail!.text).toContain('Chrome / Windows');
    expect(mail!.text).toContain(`${TEST_ORIGIN}/content/user/activities`);
    expect(mail!.text).toMatch(/\d{4}年\d{1,2}月\d{1,2}日 \d{1,2}:\d{2}（日本時間）/);
    // The same browser again: known, no mail; its own cookie given again (a session is bound to it), no new one.
    const again = await loginFrom(t, { ...member, cookie: first.cookie });
    expect(again.cookie).toBe(first.cookie);
    // Another browser: a notice.
    await loginFrom(t, member);
    await waitForMails(t.app, member.email, 3);
    expect(await notices(t, member.email)).toHaveLength(3);
    expect(await eventRows(t, member.id, 'login_new_device')).toHaveLength(3);
  });

  it('sets no cookie on a cross-site post (a login CSRF leaves nothing in the browser), and tells the member of it as of a new device', async () => {
    const member = await loggedInMember(t);
    await waitForMails(t.app, member.email, 1);
    const crossSite = await loginFrom(t, { ...member, headers: { 'sec-fetch-site': 'cross-site', origin: 'http://evil.example' } });
    expect(crossSite.res.headers['set-cookie']).toBeUndefined();
    await waitForMails(t.app, member.email, 2);
    expect(await notices(t, member.email)).toHaveLength(2);
  });

  it('counts a passkey sign-in as a sign-in', async () => {
    const member = await loggedInMember(t);
    await waitForMails(t.app, member.email, 1);
    await addPasskey(t, member.access_token, newAuthenticator());
    const authenticator = newAuthenticator();
    await addPasskey(t, member.access_token, authenticator);
    await waitForMails(t.app, member.email, 3);
    const answer = (await new LoginBrowser().signIn(t, authenticator)).json();
    await loginFrom(t, { email: member.email, password: '', ticket: answer.login_ticket });
    await waitForMails(t.app, member.email, 4);
    expect(await notices(t, member.email)).toHaveLength(2);
  });
});

describe('new-device sign-in notice off (LOGIN_NOTICE=false)', () => {
  const t = withTestApp('sqlite');

  it('mails nothing; the device cookie is set all the same, as the SSO session is bound to it (decision 0026)', async () => {
    const member = await loggedInMember(t);
    const { cookie } = await loginFrom(t, member);
    expect(cookie).toMatch(/^sso_device=[A-Za-z0-9_-]{43}$/);
    expect(await notices(t, member.email)).toEqual([]);
  });
});
