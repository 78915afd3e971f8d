import { describe, expect, it } from 'vitest';
import { LIMITS } from '@sso/contracts/constants';
import { PASSKEY_MESSAGES, SERVER_MESSAGES } from '@sso/contracts/messages';
import { markSuspended } from '../account/member-repo.ts';
import { call, loggedInMember } from '../../test-support/account-change-kit.ts';
import { mailsTo } from '../../test-support/mailbox.ts';
import { eventually } from '../../test-support/eventually.ts';
import { newTel, openBody, registerOpen } from '../../test-support/open-signup-kit.ts';
import { addPasskey, LoginBrowser, newAuthenticator } from '../../test-support/passkey-kit.ts';
import { forgot } from '../../test-support/recover-kit.ts';
import { withTestApp, type TestApp } from '../../test-support/test-app.ts';
import { DIALECTS } from '../../test-support/test-db.ts';

type Member = Awaited<ReturnType<typeof loggedInMember>>;

const login = async (t: TestApp, id: string, password: string) =>
  String((await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { id, password, recaptcha_token: 'dev', client_id: 'SIAP009' } })).json().result_message);

/** The newest mail to the address after `before` mails, once it came (the doors that answer every address alike mail after the answer). */
async function mailAfter(t: TestApp, email: string, before: number): Promise<string> {
  let text = '';
  await eventually(async () => {
    const mails = await mailsTo(t.app, email);
    expect(mails.length).toBeGreaterThan(before);
    text = mails[0]!.text;
  });
  return text;
}

/** Each door a member can reach, and what it tells them: the result message, or the mail the door sends. */
const DOORS = {
  'login by password': (t: TestApp, m: Member) => login(t, m.email, m.password),
  'fresh proof by password (a session from before)': async (t: TestApp, m: Member) =>
    String((await call(t, '/api/auth/reauth', m.access_token, { password: m.password })).json().result_message),
  'login by passkey': async (t: TestApp, m: Member & { authenticator?: ReturnType<typeof newAuthenticator> }) =>
    String((await new LoginBrowser().signIn(t, m.authenticator!)).json().result_message),
  'password reset (the forgot form\'s mail)': async (t: TestApp, m: Member) => {
    const before = (await mailsTo(t.app, m.email)).length;
    expect((await forgot(t, m.email)).json().result_code).toBe(0);
    return mailAfter(t, m.email, before);
  },
  'sign-up with the existing account (the mail)': async (t: TestApp, m: Member) => {
    const before = (await mailsTo(t.app, m.email)).length;
    expect((await registerOpen(t, openBody(m.email, { tel: newTel() }))).json().result_code).toBe(0);
    return mailAfter(t, m.email, before);
  },
};
type Door = keyof typeof DOORS;

/**
 * The lock, the suspension and the withdrawal read the same on every door the member can reach: one
 * message per state, the catalogue's (SPEC.md section 8: 203 "Account locked" shows the server
 * message; SERVER_MESSAGES). A withdrawn member is nobody: the doors answer as for an unknown id.
 */
describe.each(DIALECTS)('account states at every door (%s)', (dialect) => {
  const t = withTestApp(dialect);

  it('a suspended member is told the suspension\'s one message at every door', async () => {
    const member: Member & { authenticator?: ReturnType<typeof newAuthenticator> } = await loggedInMember(t);
    member.authenticator = newAuthenticator();
    expect((await addPasskey(t, member.access_token, member.authenticator)).json().result_code).toBe(0);
    expect(await markSuspended(t.testDb.db.kysely, member.id, t.clock.now())).toBe(true);
    const doors: Door[] = ['login by password', 'login by passkey', "password reset (the forgot form's mail)", 'sign-up with the existing account (the mail)'];
    for (const door of doors) expect(await DOORS[door](t, member), door).toContain(SERVER_MESSAGES.suspended);
  });

  it('a locked member is told the lock\'s one message at every door that checks the password', async () => {
    const member = await loggedInMember(t);
    for (let i = 0; i < LIMITS.loginFailuresBeforeLock; i++) await login(t, member.email, 'Wrong-pass1');
    const doors: Door[] = ['login by password', 'fresh proof by password (a session from before)'];
    for (const door of doors) expect(await DOORS[door](t, member), door).toBe(SERVER_MESSAGES.locked);
    // The reset is the way out of a lock (it lifts it): its mail carries the link, not the lock.
    expect(await DOORS["password reset (the forgot form's mail)"](t, member)).toContain('/content/recover/password?onetime_token=');
  });

  it('a withdrawn member reads as an unknown id: wrong credentials, no passkey, no mail', async () => {
    const member: Member & { authenticator?: ReturnType<typeof newAuthenticator> } = await loggedInMember(t);
    member.authenticator = newAuthenticator();
    expect((await addPasskey(t, member.access_token, member.authenticator)).json().result_code).toBe(0);
    expect((await call(t, '/api/auth/cancel', member.access_token)).json().result_code).toBe(0);
    expect(await DOORS['login by password'](t, member)).toBe(SERVER_MESSAGES.credentials);
    expect(await DOORS['login by passkey'](t, member)).toBe(PASSKEY_MESSAGES.notAccepted);
    const before = (await mailsTo(t.app, member.email)).length;
    expect((await forgot(t, member.email)).json().result_code).toBe(0);
    // Another member's reset, asked after it, has been mailed: the withdrawn address's came to nothing.
    const other = await loggedInMember(t);
    await DOORS["password reset (the forgot form's mail)"](t, other);
    expect(await mailsTo(t.app, member.email)).toHaveLength(before);
  });
});
