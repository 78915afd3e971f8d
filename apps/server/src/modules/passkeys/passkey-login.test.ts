import { describe, expect, it } from 'vitest';
import { PASSKEY_MESSAGES } from '@sso/contracts/messages';
import { call, eventRows } from '../../test-support/account-change-kit.ts';
import { addPasskey, LoginBrowser, memberWithPasskey, newAuthenticator } from '../../test-support/passkey-kit.ts';
import { exchange, getCode, postAuthorize, TEST_ORIGIN, withTestApp, type TestApp } from '../../test-support/test-app.ts';
import { DIALECTS } from '../../test-support/test-db.ts';

const REFUSED = { result_code: 200, result_message: PASSKEY_MESSAGES.notAccepted };

const challengeRows = (t: TestApp) =>
  t.testDb.db.kysely.selectFrom('verifications').select(['consumed_at']).where('purpose', '=', 'passkey_login').execute();

/**
 * The passkey sign-in (decision 0024): a discoverable credential's assertion over a challenge kept
 * for this browser and client, answered as the login step answers, and the same authorize hand-off.
 */
describe.each(DIALECTS)('passkey sign-in (%s)', (dialect) => {
  const t = withTestApp(dialect);

  it('signs in with no password: the login step answer, then the authorize form with the ticket gives a code and a proved session', async () => {
    const { member, authenticator } = await memberWithPasskey(t);
    const browser = new LoginBrowser();
    const res = await browser.signIn(t, authenticator);
    expect(res.statusCode, res.body).toBe(200);
    const answer = res.json();
    expect(answer).toMatchObject({ result_code: 0, terms: [], id: member.email });
    expect(answer.login_ticket).toMatch(/^pk\./);
    // The hidden form of the SPA: the id, no password, the ticket, and no reCAPTCHA needed.
    const code = await getCode(t.app, { user: member.email, password: '', ticket: answer.login_ticket, recaptcha: '' });
    const tokens = (await exchange(t.app, code)).json();
    expect(tokens.access_token).toBeTruthy();
    // The session starts proved: a sensitive change goes through without asking again (decision 0012).
    expect((await call(t, '/api/auth/passkey/register/options', tokens.access_token)).json().result_code).toBe(0);
    expect(await eventRows(t, member.id, 'login')).toHaveLength(2);
    // The passkey's use is recorded.
    const listed = (await call(t, '/api/auth/passkeys', tokens.access_token)).json();
    expect(listed.passkeys[0].last_used_at).toBe(t.clock.now());
  });

  it('answers the additional terms of a partner as the login step does, and its ticket outlives a minute of reading them', async () => {
    const { member, authenticator } = await memberWithPasskey(t);
    const answer = (await new LoginBrowser().signIn(t, authenticator, 'SIAP004')).json();
    expect(answer.result_code).toBe(0);
    expect(answer.terms.length).toBeGreaterThan(0);
    t.clock.advance(5 * 60_000);
    const res = await postAuthorize(t.app, {
      clientId: 'SIAP004',
      redirectUri: `${TEST_ORIGIN}/dev/partner/SIAP004/callback`,
      user: member.email,
      password: '',
      ticket: answer.login_ticket,
      recaptcha: '',
      terms: answer.terms,
    });
    expect(res.statusCode).toBe(303);
    expect(new URL(res.headers.location as string).searchParams.get('code')).toBeTruthy();
  });

  it('refuses a replayed challenge, an assertion from another browser, and a challenge of another client', async () => {
    const { authenticator } = await memberWithPasskey(t);
    const browser = new LoginBrowser();
    const options = await browser.options(t);
    const assertion = authenticator.authenticate(options);
    expect((await browser.post(t, '/api/auth/passkey/login', { client_id: 'SIAP009', credential: assertion })).json().result_code).toBe(0);
    // The same answer again: its challenge is used up.
    expect((await browser.post(t, '/api/auth/passkey/login', { client_id: 'SIAP009', credential: assertion })).json()).toEqual(REFUSED);
    // A challenge asked by one browser, answered from another (a relay without the victim's cookie).
    const victim = new LoginBrowser();
    const stolen = authenticator.authenticate(await victim.options(t));
    const attacker = new LoginBrowser();
    await attacker.options(t);
    expect((await attacker.post(t, '/api/auth/passkey/login', { client_id: 'SIAP009', credential: stolen })).json()).toEqual(REFUSED);
    // ...and without any cookie at all.
    expect((await new LoginBrowser().post(t, '/api/auth/passkey/login', { client_id: 'SIAP009', credential: stolen })).json()).toEqual(REFUSED);
    // A challenge asked for one client, presented for another.
    const forWeb = authenticator.authenticate(await browser.options(t, 'SIAP009'));
    expect((await browser.post(t, '/api/auth/passkey/login', { client_id: 'SIAP004', credential: forWeb })).json()).toEqual(REFUSED);
  });

  it('refuses a wrong origin, a wrong relying party, no user verification, a stale challenge and an unknown credential', async () => {
    const { authenticator } = await memberWithPasskey(t);
    const browser = new LoginBrowser();
    for (const knobs of [{ origin: 'https://sso-test.phish.example' }, { rpId: 'phish.example' }, { noUserVerification: true }, { type: 'webauthn.create' }]) {
      expect((await browser.signIn(t, authenticator, 'SIAP009', knobs)).json(), JSON.stringify(knobs)).toEqual(REFUSED);
    }
    const options = await browser.options(t);
    t.clock.advance(5 * 60_000 + 1);
    expect((await browser.post(t, '/api/auth/passkey/login', { client_id: 'SIAP009', credential: authenticator.authenticate(options) })).json()).toEqual(REFUSED);
    const stranger = newAuthenticator();
    stranger.register({ challenge: 'x', user: { id: 'bm9ib2R5' } });
    expect((await browser.signIn(t, stranger)).json()).toEqual(REFUSED);
    // None of these signed anyone in: the member's passkey still works.
    expect((await browser.signIn(t, authenticator)).json().result_code).toBe(0);
  });

  it('refuses a credential presented as another member (the user handle), and a counter that goes backwards', async () => {
    const { authenticator } = await memberWithPasskey(t, { synced: false, counting: true });
    const browser = new LoginBrowser();
    expect((await browser.signIn(t, authenticator)).json().result_code).toBe(0);
    expect((await browser.signIn(t, authenticator)).json().result_code).toBe(0);
    // A clone that reports an old counter.
    expect((await browser.signIn(t, authenticator, 'SIAP009', { counter: 1 })).json()).toEqual(REFUSED);
    const other = await memberWithPasskey(t);
    const credential = authenticator.credentials[0]!;
    const otherHandle = other.authenticator.credentials[0]!.userHandle;
    const options = await browser.options(t);
    const swapped = authenticator.authenticate(options, { credential: { ...credential, userHandle: otherHandle } });
    expect((await browser.post(t, '/api/auth/passkey/login', { client_id: 'SIAP009', credential: swapped })).json()).toEqual(REFUSED);
  });

  it('lets exactly one of parallel answers over one challenge through, and writes and uses up one challenge row per sign-in', async () => {
    const { authenticator } = await memberWithPasskey(t);
    const browser = new LoginBrowser();
    const before = await challengeRows(t);
    const liveBefore = before.filter((r) => r.consumed_at === null).length;
    const options = await browser.options(t);
    const assertion = authenticator.authenticate(options);
    const answers = await Promise.all(Array.from({ length: 8 }, () => browser.post(t, '/api/auth/passkey/login', { client_id: 'SIAP009', credential: assertion })));
    expect(answers.map((a) => a.json().result_code).sort()).toEqual([0, 200, 200, 200, 200, 200, 200, 200]);
    const rows = await challengeRows(t);
    expect(rows).toHaveLength(before.length + 1);
    expect(rows.filter((r) => r.consumed_at === null)).toHaveLength(liveBefore);
  });

  it('never signs in a withdrawn member, answers bad input with 901, an unknown client with 901, and never 500', async () => {
    const { member, authenticator } = await memberWithPasskey(t);
    const browser = new LoginBrowser();
    for (const body of [{}, { client_id: 'SIAP009' }, { client_id: 'SIAP009', credential: { id: 'x' } }, { client_id: 'SIAP009', credential: 'x'.repeat(70_000) }]) {
      const res = await browser.post(t, '/api/auth/passkey/login', body);
      expect(res.statusCode, JSON.stringify(body).slice(0, 80)).toBeLessThan(500);
      expect([901, 200]).toContain(res.json().result_code);
    }
    const garbage = { id: 'AAAA', rawId: 'AAAA', type: 'public-key', response: { clientDataJSON: '!!!', authenticatorData: 'x', signature: 'y' } };
    expect((await browser.post(t, '/api/auth/passkey/login', { client_id: 'SIAP009', credential: garbage })).json()).toEqual(REFUSED);
    expect((await browser.post(t, '/api/auth/passkey/login/options', { client_id: 'NOPE' })).json().result_code).toBe(901);
    // Withdrawn: the passkeys go with the account.
    expect((await call(t, '/api/auth/cancel', member.access_token)).json().result_code).toBe(0);
    expect((await browser.signIn(t, authenticator)).json()).toEqual(REFUSED);
  });

  /** The SPA's hidden form after a passkey: the id, no password, the ticket; the code it got, or none. */
  const codeFor = async (id: string, ticket: string) =>
    new URL(String((await postAuthorize(t.app, { user: id, password: '', ticket, recaptcha: '' })).headers.location)).searchParams.get('code');

  it("ends a held passkey ticket when its passkey is deleted in the settings: no code, no session, no proof", async () => {
    // An attacker who had the member's session added a passkey and signed in with it: the ticket lives ten minutes.
    const { member, authenticator } = await memberWithPasskey(t);
    const ticket = String((await new LoginBrowser().signIn(t, authenticator)).json().login_ticket);
    const [passkey] = (await call(t, '/api/auth/passkeys', member.access_token)).json().passkeys as { id: string }[];
    expect((await call(t, '/api/auth/passkey/delete', member.access_token, { id: passkey!.id })).json().result_code).toBe(0);
    expect(await codeFor(member.email, ticket)).toBeNull();
  });

  it("redeems a passkey ticket only while its passkey is still the member's: a passkey gone by any way takes its tickets with it", async () => {
    const { member, authenticator } = await memberWithPasskey(t);
    const kept = newAuthenticator();
    expect((await addPasskey(t, member.access_token, kept, '手元のスマホ')).json().result_code).toBe(0);
    const goneTicket = String((await new LoginBrowser().signIn(t, authenticator)).json().login_ticket);
    const keptTicket = String((await new LoginBrowser().signIn(t, kept)).json().login_ticket);
    // The row goes without any ending event (as a row deleted by hand, or by a path that forgot the tickets).
    const credentialId = authenticator.credentials[0]!.id;
    await t.testDb.db.kysely.deleteFrom('passkeys').where('credential_id', '=', credentialId).execute();
    expect(await codeFor(member.email, goneTicket)).toBeNull();
    // The other passkey's ticket is the member's own and still signs in.
    expect(await codeFor(member.email, keptTicket)).toBeTruthy();
  });

  it('refuses an authorize post with an empty password and no live ticket, without counting it as a guess', async () => {
    const { member } = await memberWithPasskey(t);
    const res = await postAuthorize(t.app, { user: member.email, password: '', recaptcha: '' });
    expect(new URL(res.headers.location as string).searchParams.get('login_result')).toBe('credentials');
    expect(await eventRows(t, member.id, 'login_failed')).toEqual([]);
  });
});

/** Failed passkey sign-ins count on the network address's failures, as wrong passwords do (decision 0007). */
describe('passkey sign-in from an address with too many failures', () => {
  const t = withTestApp('sqlite', { LOGIN_ADDRESS_FAILURES: '3' });

  it('refuses the address with 203 after three refused assertions, even a right one, and a success counts nothing', async () => {
    const { authenticator } = await memberWithPasskey(t);
    const browser = new LoginBrowser();
    for (let i = 0; i < 5; i++) expect((await browser.signIn(t, authenticator)).json().result_code).toBe(0);
    for (let i = 0; i < 3; i++) expect((await browser.signIn(t, authenticator, 'SIAP009', { rpId: 'phish.example' })).json()).toEqual(REFUSED);
    const locked = await browser.signIn(t, authenticator);
    expect(locked.json().result_code).toBe(203);
    t.clock.advance(15 * 60_000 + 1);
    expect((await browser.signIn(t, authenticator)).json().result_code).toBe(0);
  });
});
