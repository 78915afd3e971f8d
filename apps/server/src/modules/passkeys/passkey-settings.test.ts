import { describe, expect, it } from 'vitest';
import { PASSKEY_MESSAGES } from '@sso/contracts/messages';
import { PASSKEY_SETTINGS_MESSAGES } from '@sso/contracts/screen-messages';
import { passkeyListResponseSchema } from '@sso/contracts/passkeys';
import { call, eventRows, expectSessionDead, loggedInMember } from '../../test-support/account-change-kit.ts';
import { FRESH_PROOF_NEEDED, reauth, refusalOf } from '../../test-support/fresh-proof-kit.ts';
import { waitForMails } from '../../test-support/mailbox.ts';
import { addPasskey, LoginBrowser, newAuthenticator } from '../../test-support/passkey-kit.ts';
import { TEST_ORIGIN, withTestApp, type TestApp } from '../../test-support/test-app.ts';
import { DIALECTS } from '../../test-support/test-db.ts';

const WINDOW = 5 * 60_000;
const list = async (t: TestApp, access: string) => passkeyListResponseSchema.parse((await call(t, '/api/auth/passkeys', access)).json());
const NOT_ACCEPTED = { result_code: 902, result_message: PASSKEY_MESSAGES.notAccepted };

/**
 * The passkey settings and the step-up by passkey (decision 0024): adding needs a fresh proof, is
 * logged and mailed with a link that removes it again; the list, rename and delete; a passkey as the
 * fresh proof, and as the only one when the member requires it.
 */
describe.each(DIALECTS)('passkey settings and step-up (%s)', (dialect) => {
  const t = withTestApp(dialect);

  it('adds a passkey after a fresh proof only, lists it with its name, time and sync state, logs it and mails a link that removes it', async () => {
    const member = await loggedInMember(t);
    t.clock.advance(WINDOW + 1);
    expect(refusalOf(await call(t, '/api/auth/passkey/register/options', member.access_token))).toEqual(FRESH_PROOF_NEEDED);
    expect((await reauth(t, member.access_token, member.password)).json().result_code).toBe(0);
    const authenticator = newAuthenticator();
    const added = await addPasskey(t, member.access_token, authenticator, ' 仕事用のスマホ ');
    expect(added.json()).toMatchObject({ result_code: 0, passkey: { name: '仕事用のスマホ', created_at: t.clock.now(), last_used_at: null, synced: true } });
    const listed = await list(t, member.access_token);
    expect(listed.passkeys.map((p) => p.name)).toEqual(['仕事用のスマホ']);
    expect(listed.require_passkey).toBe(false);
    expect(await eventRows(t, member.id, 'passkey_added')).toHaveLength(1);
    const [mail] = await waitForMails(t.app, member.email);
    expect(mail!.subject).toContain('パスキー登録のお知らせ');
    expect(mail!.text).toContain('仕事用のスマホ');
    const link = new RegExp(`${TEST_ORIGIN}/content/passkey/revoke\\?token=([A-Za-z0-9_-]+)`).exec(mail!.text);
    expect(link).toBeTruthy();
    // The mail's link, opened without signing in: the passkey goes and every session ends.
    const revoked = await t.app.inject({ method: 'POST', url: '/api/auth/passkey/revoke', payload: { token: link![1] } });
    expect(revoked.json().result_code).toBe(0);
    await expectSessionDead(t, member);
    expect((await new LoginBrowser().signIn(t, authenticator)).json().result_code).toBe(200);
    expect(await eventRows(t, member.id, 'passkey_revoked')).toHaveLength(1);
    // Used once.
    expect((await t.app.inject({ method: 'POST', url: '/api/auth/passkey/revoke', payload: { token: link![1] } })).json().result_code).toBe(902);
  });

  it('refuses an answer over another session\'s challenge, a replayed one, a wrong origin, and the same authenticator twice', async () => {
    const member = await loggedInMember(t);
    const other = await loggedInMember(t);
    const authenticator = newAuthenticator();
    const options = (await call(t, '/api/auth/passkey/register/options', member.access_token)).json().options;
    const answer = authenticator.register(options);
    // Another member's session presents it: refused, and the challenge is gone.
    expect((await call(t, '/api/auth/passkey/register', other.access_token, { name: 'x', credential: answer })).json()).toEqual(NOT_ACCEPTED);
    expect((await call(t, '/api/auth/passkey/register', member.access_token, { name: 'x', credential: answer })).json()).toEqual(NOT_ACCEPTED);
    expect((await addPasskey(t, member.access_token, authenticator, 'x', { origin: 'https://phish.example' })).json()).toEqual(NOT_ACCEPTED);
    expect((await addPasskey(t, member.access_token, authenticator, 'x', { noUserVerification: true })).json()).toEqual(NOT_ACCEPTED);
    expect((await list(t, member.access_token)).passkeys).toEqual([]);
    // The excluded credential: a second registration of the same one is refused by its id.
    expect((await addPasskey(t, member.access_token, authenticator)).json().result_code).toBe(0);
    const stored = authenticator.credentials.at(-1)!;
    const again = (await call(t, '/api/auth/passkey/register/options', member.access_token)).json().options;
    expect(again.excludeCredentials).toHaveLength(1);
    // A credential id already stored (this member's, or another's: the same answer) is refused.
    const duplicate = authenticator.register(again, { credentialId: stored.id });
    expect((await call(t, '/api/auth/passkey/register', member.access_token, { name: 'x', credential: duplicate })).json()).toEqual({
      result_code: 902,
      result_message: PASSKEY_MESSAGES.alreadyRegistered,
    });
    expect((await list(t, member.access_token)).passkeys).toHaveLength(1);
    for (const body of [{}, { name: '', credential: duplicate }, { name: 'x'.repeat(33), credential: duplicate }]) {
      expect((await call(t, '/api/auth/passkey/register', member.access_token, body)).json().result_code).toBe(901);
    }
  });

  it('renames and deletes only the member\'s own passkeys; a delete needs a fresh proof, is logged and mailed', async () => {
    const member = await loggedInMember(t);
    const other = await loggedInMember(t);
    await addPasskey(t, member.access_token, newAuthenticator(), '旧い名前');
    const [passkey] = (await list(t, member.access_token)).passkeys;
    expect((await call(t, '/api/auth/passkey/rename', other.access_token, { id: passkey!.id, name: '乗っ取り' })).json().result_message).toBe(PASSKEY_SETTINGS_MESSAGES.notFound);
    expect((await call(t, '/api/auth/passkey/delete', other.access_token, { id: passkey!.id })).json().result_message).toBe(PASSKEY_SETTINGS_MESSAGES.notFound);
    expect((await call(t, '/api/auth/passkey/rename', member.access_token, { id: passkey!.id, name: '新しい名前' })).json().result_code).toBe(0);
    expect((await list(t, member.access_token)).passkeys[0]!.name).toBe('新しい名前');
    t.clock.advance(WINDOW + 1);
    expect(refusalOf(await call(t, '/api/auth/passkey/delete', member.access_token, { id: passkey!.id })).body).toMatchObject({ result_code: 300, passkey: true, passkey_required: false });
    expect((await reauth(t, member.access_token, member.password)).json().result_code).toBe(0);
    expect((await call(t, '/api/auth/passkey/delete', member.access_token, { id: passkey!.id })).json().result_code).toBe(0);
    expect((await list(t, member.access_token)).passkeys).toEqual([]);
    expect(await eventRows(t, member.id, 'passkey_removed')).toHaveLength(1);
    const mails = await waitForMails(t.app, member.email, 2);
    expect(mails[0]!.subject).toContain('パスキー削除のお知らせ');
  });

  it('proves the session by passkey (step-up), only with the member\'s own passkey over this session\'s challenge', async () => {
    const member = await loggedInMember(t);
    const other = await loggedInMember(t);
    const mine = newAuthenticator({ synced: false, counting: true });
    const theirs = newAuthenticator();
    await addPasskey(t, member.access_token, mine);
    await addPasskey(t, other.access_token, theirs);
    t.clock.advance(WINDOW + 1);
    expect(refusalOf(await call(t, '/api/auth/cancel', member.access_token)).body).toMatchObject({ passkey: true, passkey_required: false });
    // Another member's passkey over my challenge: as unknown.
    const options = (await call(t, '/api/auth/reauth/passkey/options', member.access_token)).json().options;
    expect(options.allowCredentials).toHaveLength(1);
    const foreign = theirs.authenticate(options, { credential: theirs.credentials[0]! });
    expect((await call(t, '/api/auth/reauth/passkey', member.access_token, { credential: foreign })).json()).toEqual(NOT_ACCEPTED);
    // My passkey over another session's challenge.
    const second = (await call(t, '/api/auth/reauth/passkey/options', other.access_token)).json();
    expect(second.result_code).toBe(0);
    const crossed = mine.authenticate(second.options, { credential: mine.credentials[0]! });
    expect((await call(t, '/api/auth/reauth/passkey', member.access_token, { credential: crossed })).json()).toEqual(NOT_ACCEPTED);
    // A counter that goes backwards.
    const good = (await call(t, '/api/auth/reauth/passkey/options', member.access_token)).json().options;
    expect((await call(t, '/api/auth/reauth/passkey', member.access_token, { credential: mine.authenticate(good) })).json().result_code).toBe(0);
    const stale = (await call(t, '/api/auth/reauth/passkey/options', member.access_token)).json().options;
    expect((await call(t, '/api/auth/reauth/passkey', member.access_token, { credential: mine.authenticate(stale, { counter: 1 }) })).json()).toEqual(NOT_ACCEPTED);
    expect(await eventRows(t, member.id, 'passkey_reauth')).toHaveLength(1);
    // The step-up that passed made the session fresh: the e-mail change goes through.
    expect((await call(t, '/api/auth/email/change', member.access_token, { email: `pk.${Date.now()}@example.com` })).json().result_code).toBe(0);
    // A member without a passkey asks for options in vain.
    const none = await loggedInMember(t);
    expect((await call(t, '/api/auth/reauth/passkey/options', none.access_token)).json().result_message).toBe(PASSKEY_SETTINGS_MESSAGES.none);
  });

  it('requires a passkey when the member chooses: no password proves a change, a password login starts unproved, deleting the last passkey lifts it', async () => {
    const member = await loggedInMember(t);
    expect((await call(t, '/api/auth/passkey/require', member.access_token, { required: true })).json().result_message).toBe(PASSKEY_SETTINGS_MESSAGES.requireNeedsPasskey);
    const authenticator = newAuthenticator();
    await addPasskey(t, member.access_token, authenticator);
    expect((await call(t, '/api/auth/passkey/require', member.access_token, { required: true })).json().result_code).toBe(0);
    expect((await list(t, member.access_token)).require_passkey).toBe(true);
    t.clock.advance(WINDOW + 1);
    // The refusal says a passkey is needed; the password is not even checked.
    const refusal = refusalOf(await call(t, '/api/auth/cancel', member.access_token));
    expect(refusal.body).toEqual({ result_code: 300, result_message: PASSKEY_MESSAGES.freshProofPasskeyNeeded, passkey: true, passkey_required: true });
    expect((await reauth(t, member.access_token, member.password)).json()).toEqual({ result_code: 902, result_message: PASSKEY_MESSAGES.freshProofPasskeyNeeded });
    // A password change with the current password alone is not enough either (it needs the passkey in the request).
    const change = { current_password: member.password, password: 'Newpass123', password_check: 'Newpass123' };
    expect((await call(t, '/api/auth/password/change', member.access_token, change)).json()).toEqual({ result_code: 902, result_message: PASSKEY_MESSAGES.freshProofPasskeyNeeded });
    // A fresh password login: the session is not proved.
    const fresh = await loggedInMember(t);
    expect(fresh.id).not.toBe(member.id);
    const { loginTokens } = await import('../../test-support/test-app.ts');
    const byPassword = await loginTokens(t.app, { user: member.email, password: member.password });
    expect(refusalOf(await call(t, '/api/auth/cancel', byPassword.access_token)).status).toBe(401);
    // The passkey proves it.
    const options = (await call(t, '/api/auth/reauth/passkey/options', byPassword.access_token)).json().options;
    expect((await call(t, '/api/auth/reauth/passkey', byPassword.access_token, { credential: authenticator.authenticate(options) })).json().result_code).toBe(0);
    const [passkey] = (await list(t, byPassword.access_token)).passkeys;
    // Deleting the last passkey lifts the requirement: the member is never locked out.
    expect((await call(t, '/api/auth/passkey/delete', byPassword.access_token, { id: passkey!.id })).json().result_code).toBe(0);
    expect((await list(t, byPassword.access_token)).require_passkey).toBe(false);
    expect((await call(t, '/api/auth/password/change', byPassword.access_token, change)).json().result_code).toBe(0);
    expect(await eventRows(t, member.id, 'passkey_required')).toHaveLength(1);
  });
});
