import { describe, expect, it } from 'vitest';
import { LOGIN_RETRY_PARAM } from '@sso/contracts/constants';
import { sha256, verifyPassword } from '@sso/server/test-support/internals';
import { waitForCode, waitForLink } from '../support/mailbox.ts';
import { authorize, codeOf, DEMO_CARD, DEMO_OPEN, exchange, login, pkce, post, spaClient, tokenRequest, type Answer } from './support/client.ts';
import {
  eventsOf,
  freshEmail,
  invalidGrant,
  openMember,
  outboxTo,
  race,
  raceForOne,
  refusedWith,
  resultCode,
  succeeded,
  tokenOfLink,
  userIdOf,
  withRaceSystem,
  type RaceSystem,
} from './support/races.ts';

/**
 * Races of the one-time secrets of logged-in members and partners, and of the point
 * transfer: each is redeemed by 100 parallel requests at a listening server, exactly one goes on,
 * and the database shows that it happened once (ARCHITECTURE.md: single use enforced in the
 * database; OWASP ASVS 5.0 V6.6, V10.4.2: an authorization code is used once). The code and the
 * point transfer also run on PostgreSQL, where parallel transactions hold row locks instead of
 * queueing behind SQLite's one writer (on SQLite a step without real I/O, such as the code
 * exchange, runs to its end before the next request is read).
 */

const RESET_PATH = '/content/recover/password';
/** The demo card member's seeded card and its holder's mobile, where the transfer code goes (docs/demo.md "Demo data"). */
const DEMO_SUBUSER = 'demo-card-subuser-1';
const DEMO_CARD_ID = 'demo-card-member';

/** RFC 6749 section 4.1.2: a code is used once; a second use revokes what the first issued. */
async function codeRace(sys: RaceSystem) {
  const p = pkce();
  const code = codeOf(await authorize(sys.origin, { user: DEMO_CARD.user, password: DEMO_CARD.password, pkce: p }));
  const terminal = `terminal-race-code-${Date.now()}`;
  await raceForOne(() => exchange(sys.origin, code, p, { terminal_id: terminal }), (a) => a.status === 200 && Boolean(a.json?.access_token), invalidGrant);
  const row = await sys.db.kysely.selectFrom('auth_codes').selectAll().where('code_hash', '=', sha256(code)).executeTakeFirstOrThrow();
  expect(row.consumed_at).not.toBeNull();
  const families = await sys.db.kysely.selectFrom('token_families').selectAll().where('terminal_id', '=', terminal).execute();
  expect(families.map((f) => f.id)).toEqual([row.family_id]);
  expect(await sys.db.kysely.selectFrom('token_grants').select('id').where('family_id', '=', row.family_id).execute()).toHaveLength(1);
  // The 99 replays of the used code revoked the one family it issued (RFC 9700 section 4.2.4).
  expect(families[0]?.revoked_at).not.toBeNull();
}

/**
 * RFC 9126 section 4 (decision 0036): the SPA's pushed request, its one request_uri posted with the
 * member's password 100 times at once. One code; every other post is refused, by the 400 page once the
 * request is used, or by an error to the pushed (registered) redirect URI for a post that read it
 * before, or by the login page saying the account is locked once the burst of passwords has locked it
 * (authorize-service.ts retryLoginPage); the request's row is used up.
 */
async function pushedRequestRace(sys: RaceSystem) {
  const spa = spaClient(sys.origin);
  const pushed = await post(sys.origin, '/api/auth/par', {
    form: { client_id: spa.clientId, response_type: 'code', redirect_uri: spa.redirectUri, scope: 'openid', state: 'race-par', code_challenge: pkce().challenge, code_challenge_method: 'S256' },
  });
  expect(pushed.status, pushed.text).toBe(201);
  const requestUri = String(pushed.json?.request_uri);
  const only = { request_uri: requestUri, redirect_uri: undefined, state: undefined, scope: undefined, response_type: undefined, code_challenge: undefined, code_challenge_method: undefined };
  const location = (a: Answer) => new URL(a.headers.get('location') ?? `${sys.origin}/`);
  const coded = (a: Answer) => a.status === 303 && location(a).searchParams.has('code');
  const lockedPage = (a: Answer) => location(a).pathname === '/content/authorize' && ['locked', 'address'].includes(location(a).searchParams.get(LOGIN_RETRY_PARAM) ?? '');
  const refused = (a: Answer) =>
    a.status === 400 || (a.status === 303 && ((location(a).href.startsWith(spa.redirectUri) && location(a).searchParams.get('error') === 'access_denied') || lockedPage(a)));
  await raceForOne(() => authorize(sys.origin, { user: DEMO_CARD.user, password: DEMO_CARD.password, query: only }), coded, refused);
  const rows = await sys.db.kysely.selectFrom('pushed_authorization_requests').select('consumed_at').where('uri_hash', '=', sha256(requestUri.split(':').pop() ?? '')).execute();
  expect(rows).toHaveLength(1);
  expect(rows[0]?.consumed_at).not.toBeNull();
}

const balances = async (sys: RaceSystem, userId: string) =>
  Object.fromEntries(
    (await sys.db.kysely.selectFrom('point_accounts').select(['kind', 'points']).where('user_id', '=', userId).execute()).map((r) => [r.kind, Number(r.points)]),
  );

/**
 * Decision 0006: the demo card member links demo.open's 1,200 open points, selects its card and
 * confirms with the SMS code 100 times at once. One request at a time checks the code
 * (points/transfer-service.ts): the first claims the flow, the others wait for its check and answer
 * (as the decision says of a repeated request for a flow already transferring) the ledger's recorded
 * result, none a refusal: a double submission is no wrong guess. The ledger holds one transfer and
 * the balances moved once.
 */
async function transferRace(sys: RaceSystem) {
  const { access_token: access } = await login(sys.origin, DEMO_CARD.user, DEMO_CARD.password);
  const linked = await post(sys.origin, '/api/link/open', {
    token: access,
    json: { email: DEMO_OPEN.user, last_name_kana: 'ヤマダ', first_name_kana: 'ハナコ', birthday: '19900101', tel: DEMO_OPEN.mobile, password: DEMO_OPEN.password },
  });
  expect(resultCode(linked), linked.text).toBe(0);
  const before = await balances(sys, DEMO_CARD_ID);
  expect(before.open).toBe(1200);
  const selected = await post(sys.origin, '/api/aqf/transfer/open/select', { token: access, json: { subuser_id: DEMO_SUBUSER } });
  expect(resultCode(selected), selected.text).toBe(0);
  const code = await waitForCode(sys.origin, 'sms', DEMO_CARD.mobile);
  const confirm = () =>
    post(sys.origin, '/api/aqf/transfer/open/otp', { token: access, json: { register_token: selected.json?.register_token, onetime_password: code } });
  const { winners, answers, tally } = await race(confirm, succeeded, () => false);
  expect(winners.length, tally).toBe(answers.length);
  const after = { open: 0, na: (before.na ?? 0) + 1200 };
  for (const i of winners) expect(answers[i]?.json).toMatchObject({ moved_points: 1200, aqf_point_open: after.open, aqf_point_na: after.na });
  expect(await balances(sys, DEMO_CARD_ID)).toEqual(after);
  const transfers = await sys.db.kysely.selectFrom('point_transfers').selectAll().where('user_id', '=', DEMO_CARD_ID).execute();
  expect(transfers.map((t) => Number(t.amount))).toEqual([1200]);
  expect(await eventsOf(sys.db, DEMO_CARD_ID, 'points_transferred')).toHaveLength(1);
  const flows = await sys.db.kysely.selectFrom('member_flows').select('state').where('user_id', '=', DEMO_CARD_ID).where('kind', '=', 'point_transfer').execute();
  expect(flows).toEqual([{ state: 'done' }]);
}

describe.each(['sqlite', 'postgres'] as const)('one-time secrets and the point transfer raced 100 times (%s)', (engine) => {
  const sys = withRaceSystem(engine);
  const sqliteOnly = it.runIf(engine === 'sqlite');

  it('an authorization code gives exactly one token family', () => codeRace(sys));

  it('the point transfer moves the balance exactly once', () => transferRace(sys));

  it('a pushed authorization request gives exactly one code', () => pushedRequestRace(sys));

  sqliteOnly('a password reset link changes the password exactly once', async () => {
    const member = await openMember(sys, 'reset');
    const forgot = await post(sys.origin, '/api/auth/password/forgot', { json: { email: member.email } });
    expect(resultCode(forgot), forgot.text).toBe(0);
    const onetimeToken = tokenOfLink(await waitForLink(sys.origin, member.email, RESET_PATH));
    // Each request sets its own password, so the stored hash names the one that won.
    const password = (i: number) => `Race-reset${i}`;
    const reset = (i: number) => post(sys.origin, '/api/auth/password/reset', { json: { onetime_token: onetimeToken, password: password(i), password_check: password(i) } });
    const { index } = await raceForOne(reset, succeeded, refusedWith(902));
    const user = await sys.db.kysely.selectFrom('users').select('password_hash').where('id', '=', member.userId).executeTakeFirstOrThrow();
    expect(await verifyPassword(user.password_hash, password(index))).toBe(true);
    expect(await eventsOf(sys.db, member.userId, 'password_reset')).toHaveLength(1);
  });

  sqliteOnly('a direct-login one-time token gives exactly one token family', async () => {
    const { access_token: access } = await login(sys.origin, DEMO_CARD.user, DEMO_CARD.password);
    const issued = await post(sys.origin, '/api/auth/user_onetime_token', { token: access, json: {} });
    const onetimeToken = String(issued.json?.onetime_token);
    const terminal = `terminal-race-dl-${Date.now()}`;
    const before = await eventsOf(sys.db, DEMO_CARD_ID, 'direct_login');
    const grant = { grant_type: 'password', onetime_token: onetimeToken, client_id: 'SIAP009', terminal_id: terminal };
    // The grant is the same at both token endpoints (SPEC.md section 7): half the racers use each.
    const redeem = (i: number) => (i % 2 ? tokenRequest(sys.origin, grant) : post(sys.origin, '/api/auth/direct_login/token', { form: grant }));
    await raceForOne(redeem, (a) => a.status === 200 && Boolean(a.json?.access_token), invalidGrant);
    expect(await sys.db.kysely.selectFrom('token_families').select('id').where('terminal_id', '=', terminal).execute()).toHaveLength(1);
    expect(await eventsOf(sys.db, DEMO_CARD_ID, 'direct_login')).toHaveLength(before.length + 1);
    const secret = await sys.db.kysely.selectFrom('verifications').select('consumed_at').where('secret_hash', '=', sha256(onetimeToken)).executeTakeFirstOrThrow();
    expect(secret.consumed_at).not.toBeNull();
  });

  sqliteOnly('an e-mail change code changes the address exactly once', async () => {
    const member = await openMember(sys, 'change');
    const newEmail = freshEmail('changed');
    const asked = await post(sys.origin, '/api/auth/email/change', { token: member.tokens.access_token, json: { email: newEmail } });
    expect(resultCode(asked), asked.text).toBe(0);
    const code = await waitForCode(sys.origin, 'mail', newEmail);
    const noticesBefore = (await outboxTo(sys.db, member.email)).length;
    // Confirmed by the session that asked (decision 0012).
    const confirm = () =>
      post(sys.origin, '/api/auth/email/change/otp', { token: member.tokens.access_token, json: { register_token: asked.json?.register_token, otp_email: code } });
    await raceForOne(confirm, succeeded, refusedWith(203, 300, 902));
    expect(await userIdOf(sys.db, newEmail)).toBe(member.userId);
    expect(await eventsOf(sys.db, member.userId, 'email_changed')).toHaveLength(1);
    const changes = await sys.db.kysely.selectFrom('email_changes').select('state').where('user_id', '=', member.userId).execute();
    expect(changes).toEqual([{ state: 'done' }]);
    // The old address is told once (SPEC.md section 3, e-mail change).
    expect(await outboxTo(sys.db, member.email)).toHaveLength(noticesBefore + 1);
  });
});
