import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { OPERATOR_MESSAGES } from '@sso/contracts/operators';
import { operatorMeResponseSchema, operatorSignInResponseSchema } from '@sso/contracts/operators';
import { REPO_ROOT } from '../../config.ts';
import { sha256 } from '../../lib/secrets.ts';
import { LoginBrowser, memberWithPasskey, newAuthenticator } from '../../test-support/passkey-kit.ts';
import { adminCall, bootstrap, enrol, enrolledOperator, enrolmentToken, invite, signedInAdmin, signIn, stepUp } from '../../test-support/operator-kit.ts';
import { bearer, loginTokens, TEST_ORIGIN, withTestApp, type TestApp } from '../../test-support/test-app.ts';
import { DIALECTS } from '../../test-support/test-db.ts';
import { OPERATOR_LIMITS } from './limits.ts';

const run = promisify(execFile);
const MINUTE = 60_000;
const INVALID_LINK = { result_code: 902, result_message: OPERATOR_MESSAGES.enrolmentInvalid };
const NOT_ACCEPTED = { result_code: 902, result_message: OPERATOR_MESSAGES.notAccepted };

/** A 401 of the operator guard: result 300 and an RFC 6750 challenge. */
function expectDead(res: { statusCode: number; json(): unknown; headers: Record<string, unknown> }) {
  expect(res.statusCode).toBe(401);
  expect(res.json()).toMatchObject({ result_code: 300 });
  expect(String(res.headers['www-authenticate'])).toMatch(/^Bearer/);
}

const me = (t: TestApp, token: string | undefined) => adminCall(t, '/api/admin/me', token);

/**
 * The operator identity (decision 0032): an administrator made by the bootstrap command enrols a
 * passkey by a single-use link and signs in with it only; invites need the admin role and a fresh
 * passkey proof; operator tokens die idle or old or at logout, and never cross with a member's.
 */
describe.each(DIALECTS)('operators (%s)', (dialect) => {
  const t = withTestApp(dialect);

  it('bootstrap command -> enrol -> sign in -> me: an active administrator, by a single-use link printed on the host', async () => {
    const { stdout } = await run(process.execPath, ['--import', 'tsx', 'apps/server/src/admin-cli.ts', 'bootstrap', '--email', 'Root.Admin@Card.Example.jp', '--name', '管理者 太郎'], {
      cwd: REPO_ROOT,
      env: { ...process.env, NODE_ENV: 'development', DATABASE_URL: t.testDb.url, PUBLIC_ORIGIN: TEST_ORIGIN, SEED_DEMO: 'false' },
    });
    expect(stdout).toContain('administrator created: root.admin@card.example.jp (管理者 太郎)');
    const url = /^(http:\/\/\S+)$/m.exec(stdout)?.[1];
    expect(url).toMatch(new RegExp(`^${TEST_ORIGIN}/admin/enrol#token=`));
    const token = enrolmentToken(url!);
    // The link is stored as its SHA-256 only.
    const stored = await t.testDb.db.kysely.selectFrom('operator_enrolments').selectAll().execute();
    expect(stored.map((r) => r.token_hash)).toContain(sha256(token));
    expect(JSON.stringify(stored)).not.toContain(token);

    const authenticator = newAuthenticator();
    const { enrolled } = await enrol(t, token, authenticator);
    expect(enrolled!.json()).toMatchObject({ result_code: 0 });
    const signedIn = await signIn(t, authenticator);
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    const answer = operatorSignInResponseSchema.parse(signedIn.json());
    expect(answer).toMatchObject({ token_type: 'Bearer', expires_in: 15 * 60, operator: { email: 'root.admin@card.example.jp', role: 'admin', status: 'active' } });
    expect(answer.access_token).toMatch(/^op_[A-Za-z0-9_-]{43}$/);
    const sessions = await t.testDb.db.kysely.selectFrom('operator_sessions').select('token_hash').execute();
    expect(sessions.map((s) => s.token_hash)).toContain(sha256(answer.access_token));

    const res = await me(t, answer.access_token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const body = operatorMeResponseSchema.parse(res.json());
    expect(body.operator).toMatchObject({ email: 'root.admin@card.example.jp', display_name: '管理者 太郎', role: 'admin' });
    expect(body.session.expires_at - body.session.created_at).toBe(8 * 60 * MINUTE);
    // The bootstrap, the enrolment and the sign-in are rows of the audit log; the bootstrap's operator is the host.
    const audit = await t.testDb.db.kysely.selectFrom('audit_log').selectAll().where('action', 'like', 'operator.%').orderBy('created_at').execute();
    const operatorId = body.operator.id;
    expect(audit.find((r) => r.action === 'operator.bootstrap' && r.detail?.includes(operatorId))).toMatchObject({ operator_id: 'host', operator_role: 'host' });
    expect(audit.find((r) => r.action === 'operator.enrol' && r.operator_id === operatorId)).toMatchObject({ operator_role: 'admin' });
    expect(audit.find((r) => r.action === 'operator.sign_in' && r.operator_id === operatorId)).toMatchObject({ operator_role: 'admin', address: expect.any(String) });
  });

  it('invites a support operator, who enrols and signs in; support cannot invite (403)', async () => {
    const admin = await signedInAdmin(t, 'admin2@card.example.jp');
    const invited = await invite(t, admin.token, { email: ' Support.One@Card.Example.jp ', role: 'support' });
    expect(invited.statusCode, invited.body).toBe(200);
    expect(invited.json()).toMatchObject({ result_code: 0, operator: { email: 'support.one@card.example.jp', role: 'support', status: 'active' }, expires_at: t.clock.now() + 30 * MINUTE });
    const support = await enrolledOperator(t, enrolmentToken(invited.json().enrolment_url));
    expect((await me(t, support.token)).json()).toMatchObject({ operator: { email: 'support.one@card.example.jp', role: 'support' } });

    const refused = await invite(t, support.token, { email: 'someone@card.example.jp', role: 'support' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ result_code: 300 });
    expect(refused.headers['www-authenticate']).toContain('error="insufficient_scope"');
    expect(refused.headers['www-authenticate']).toContain('scope="operator:admin"');
    expect(await t.testDb.db.kysely.selectFrom('operators').select('id').where('email', '=', 'someone@card.example.jp').executeTakeFirst()).toBeUndefined();
    // The same e-mail twice is one operator.
    expect((await invite(t, admin.token, { email: 'support.one@card.example.jp', role: 'admin' })).json()).toMatchObject({ result_code: 902, result_message: OPERATOR_MESSAGES.alreadyOperator });
  });

  it('refuses an invite without a passkey proof of the last 5 minutes; a step-up by passkey makes it fresh again', async () => {
    const admin = await signedInAdmin(t, 'admin3@card.example.jp');
    t.clock.advance(OPERATOR_LIMITS.freshProofMs + 1);
    const stale = await invite(t, admin.token, { email: 'support.two@card.example.jp', role: 'support' });
    expect(stale.statusCode).toBe(401);
    expect(stale.json()).toMatchObject({ result_code: 300, result_message: OPERATOR_MESSAGES.freshProofNeeded });
    expect(stale.headers['www-authenticate']).toContain('insufficient_user_authentication');
    // Another operator's passkey is no proof of this one.
    const other = await signedInAdmin(t, 'admin4@card.example.jp');
    const options = (await adminCall(t, '/api/admin/reauth/options', admin.token)).json().options;
    const foreign = other.authenticator.authenticate(options, { credential: other.authenticator.credentials[0] });
    expect((await adminCall(t, '/api/admin/reauth', admin.token, { credential: foreign })).json()).toEqual(NOT_ACCEPTED);
    expect((await invite(t, admin.token, { email: 'support.two@card.example.jp', role: 'support' })).statusCode).toBe(401);
    expect((await stepUp(t, admin.token, admin.authenticator)).json()).toMatchObject({ result_code: 0 });
    expect((await invite(t, admin.token, { email: 'support.two@card.example.jp', role: 'support' })).json()).toMatchObject({ result_code: 0 });
  });

  it('refuses an enrolment link reused, expired, replaced or guessed', async () => {
    const token = await bootstrap(t, 'admin5@card.example.jp');
    const first = newAuthenticator();
    expect((await enrol(t, token, first)).enrolled!.json()).toMatchObject({ result_code: 0 });
    // Used: neither the options nor a second enrolment.
    expect((await adminCall(t, '/api/admin/enrol/options', undefined, { token })).json()).toEqual(INVALID_LINK);
    // Options asked before the use, answered after it: the link is used up once, in the database.
    const again = await bootstrap(t, 'admin5@card.example.jp');
    const raceA = newAuthenticator();
    const raceB = newAuthenticator();
    const optionsA = (await adminCall(t, '/api/admin/enrol/options', undefined, { token: again })).json().options;
    const optionsB = (await adminCall(t, '/api/admin/enrol/options', undefined, { token: again })).json().options;
    const answers = await Promise.all([
      adminCall(t, '/api/admin/enrol', undefined, { token: again, name: 'A', credential: raceA.register(optionsA) }),
      adminCall(t, '/api/admin/enrol', undefined, { token: again, name: 'B', credential: raceB.register(optionsB) }),
    ]);
    expect(answers.map((a) => a.json().result_code).sort()).toEqual([0, 902]);
    expect(answers.map((a) => a.json()).find((a) => a.result_code === 902)).toEqual(INVALID_LINK);

    // Expired after 30 minutes.
    const late = await bootstrap(t, 'admin5@card.example.jp');
    t.clock.advance(OPERATOR_LIMITS.enrolmentLinkMs);
    expect((await adminCall(t, '/api/admin/enrol/options', undefined, { token: late })).json()).toEqual(INVALID_LINK);
    // Replaced: a new link kills the operator's older one.
    const older = await bootstrap(t, 'admin5@card.example.jp');
    const newer = await bootstrap(t, 'admin5@card.example.jp');
    expect((await adminCall(t, '/api/admin/enrol/options', undefined, { token: older })).json()).toEqual(INVALID_LINK);
    expect((await adminCall(t, '/api/admin/enrol/options', undefined, { token: newer })).json()).toMatchObject({ result_code: 0 });
    // Guessed.
    for (const guess of ['A'.repeat(43), newer.slice(0, -1) + (newer.endsWith('A') ? 'B' : 'A'), 'x']) {
      expect((await adminCall(t, '/api/admin/enrol/options', undefined, { token: guess })).json()).toEqual(INVALID_LINK);
      expect((await enrol(t, guess, newAuthenticator())).options.json()).toEqual(INVALID_LINK);
    }
  });

  it('ends a session 15 minutes after its last use, and 8 hours after its sign-in however it is used', async () => {
    const admin = await signedInAdmin(t, 'admin6@card.example.jp');
    t.clock.advance(OPERATOR_LIMITS.sessionIdleMs - 1);
    expect((await me(t, admin.token)).statusCode).toBe(200);
    t.clock.advance(OPERATOR_LIMITS.sessionIdleMs);
    expectDead(await me(t, admin.token));

    const busy = (await signIn(t, admin.authenticator)).json().access_token as string;
    for (let used = 0; used + 10 * MINUTE < OPERATOR_LIMITS.sessionMaxMs; used += 10 * MINUTE) {
      t.clock.advance(10 * MINUTE);
      expect((await me(t, busy)).statusCode).toBe(200);
    }
    t.clock.advance(OPERATOR_LIMITS.sessionMaxMs - 47 * 10 * MINUTE);
    expectDead(await me(t, busy));
  });

  it('logout ends the token at once', async () => {
    const admin = await signedInAdmin(t, 'admin7@card.example.jp');
    const out = await adminCall(t, '/api/admin/logout', admin.token);
    expect(out.json()).toMatchObject({ result_code: 0 });
    expectDead(await me(t, admin.token));
    expectDead(await adminCall(t, '/api/admin/logout', admin.token));
  });

  it("never crosses with a member's tokens: an operator token is no member token (401), a member token no operator token (403)", async () => {
    const admin = await signedInAdmin(t, 'admin8@card.example.jp');
    const onMember = await t.app.inject({ method: 'POST', url: '/api/user', headers: bearer(admin.token) });
    expect(onMember.statusCode).toBe(401);
    expect(onMember.json()).toMatchObject({ result_code: 300 });

    const member = await loginTokens(t.app);
    const onOperator = await me(t, member.access_token);
    expect(onOperator.statusCode).toBe(403);
    expect(onOperator.json()).toMatchObject({ result_code: 300 });
    expect(onOperator.headers['www-authenticate']).toContain('error="insufficient_scope"');
    expect((await invite(t, member.access_token, { email: 'x@card.example.jp', role: 'admin' })).statusCode).toBe(403);
    // No token, a garbage one, a dead operator-looking one.
    expectDead(await me(t, undefined));
    expectDead(await me(t, 'not-a-token'));
    expectDead(await me(t, `op_${'A'.repeat(43)}`));
  });

  it('shuts a disabled operator out: their token dies, they cannot sign in or enrol; the bootstrap re-enables an administrator', async () => {
    const email = 'admin10@card.example.jp';
    const admin = await signedInAdmin(t, email);
    const spare = await bootstrap(t, email);
    await t.testDb.db.kysely.updateTable('operators').set({ status: 'disabled' }).where('email', '=', email).execute();
    expectDead(await me(t, admin.token));
    expect((await signIn(t, admin.authenticator)).json()).toEqual(NOT_ACCEPTED);
    expect((await adminCall(t, '/api/admin/enrol/options', undefined, { token: spare })).json()).toEqual(INVALID_LINK);
    // The break-glass command: active again, as an administrator, with a new link; the passkey signs in again.
    const fresh = await bootstrap(t, email);
    expect((await adminCall(t, '/api/admin/enrol/options', undefined, { token: fresh })).json()).toMatchObject({ result_code: 0 });
    const back = await signIn(t, admin.authenticator);
    expect(back.json()).toMatchObject({ result_code: 0, operator: { email, role: 'admin', status: 'active' } });
  });

  it('reads the invite by its contract (901 with field keys) only after the token and role are checked', async () => {
    const admin = await signedInAdmin(t, 'admin11@card.example.jp');
    const bad = await invite(t, admin.token, { email: 'not-an-address', role: 'root' as 'admin' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().result_code).toBe(901);
    expect(bad.json().validation_errors.map((e: { key: string }) => e.key).sort()).toEqual(['email', 'role']);
    // Without a token the body is never read: 401, not 901.
    expectDead(await invite(t, 'op_x', { email: 'not-an-address', role: 'root' as 'admin' }));
  });

  it('refuses an address after 30 refused sign-ins in 15 minutes (203), and lets it try again after', async () => {
    const admin = await signedInAdmin(t, 'admin12@card.example.jp');
    const from = { remoteAddress: '203.0.113.77' };
    const attempt = async (credential: unknown) =>
      t.app.inject({ method: 'POST', url: '/api/admin/login', ...from, payload: { credential } as object });
    const options = async () => (await t.app.inject({ method: 'POST', url: '/api/admin/login/options', ...from })).json().options as Record<string, unknown>;
    for (let i = 0; i < OPERATOR_LIMITS.signInFailuresPerAddress; i++) {
      expect((await attempt(admin.authenticator.authenticate(await options(), { noUserVerification: true }))).json()).toEqual(NOT_ACCEPTED);
    }
    expect((await attempt(admin.authenticator.authenticate(await options()))).json()).toMatchObject({ result_code: 203 });
    // Another address is not held back.
    expect((await signIn(t, admin.authenticator)).json()).toMatchObject({ result_code: 0 });
    t.clock.advance(OPERATOR_LIMITS.signInFailureWindowMs);
    expect((await attempt(admin.authenticator.authenticate(await options()))).json()).toMatchObject({ result_code: 0 });
  });

  it("keeps the passkeys apart: a member's passkey does not sign an operator in, nor an operator's a member", async () => {
    const { authenticator: memberKey } = await memberWithPasskey(t);
    const refused = await signIn(t, memberKey);
    expect(refused.json()).toEqual(NOT_ACCEPTED);
    const admin = await signedInAdmin(t, 'admin9@card.example.jp');
    expect((await new LoginBrowser().signIn(t, admin.authenticator)).json()).toMatchObject({ result_code: 200 });
  });
});
