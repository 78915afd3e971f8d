import { describe, expect, it } from 'vitest';
import { WEB_SCOPE } from '@sso/contracts/scopes';
import { authorizeQuery } from '@sso/server/test-support';
import { sha256 } from '@sso/server/test-support/internals';
import { waitForCode } from '../support/mailbox.ts';
import { pkce, post, spaClient, type Pkce } from './support/client.ts';
import { CARDS, cardSignupBody } from './support/signup-bodies.ts';
import {
  freshEmail,
  outboxTo,
  raceForOne,
  refusedWith,
  registerOpen,
  resultCode,
  secretsOf,
  succeeded,
  userIdOf,
  withRaceSystem,
  eventsOf,
  type RaceSystem,
} from './support/races.ts';

/**
 * Races of the sign-ups' one-time secrets: each is redeemed by 100 parallel requests at a
 * listening server on SQLite, exactly one goes on, and the database shows that the step happened once.
 * ARCHITECTURE.md: single use is enforced in the database by a conditional update (the
 * verification row, the flow's state); OWASP ASVS 5.0 V6.6 (out-of-band and one-time codes are
 * used once). A loser is a refusal: 300 (step out of order), 902 (code gone) or 203 (the card's
 * lock is counted before each comparison), never a 5xx.
 *
 * On SQLite (better-sqlite3 is synchronous) a step without real I/O runs to its end before the next
 * request is read, so only the code checks (argon2id) interleave here; the same steps under the row
 * locks of PostgreSQL are raced in-process by the modules' tests on both dialects.
 */

const STEP_REFUSED = refusedWith(203, 300, 902);

/** POST /api/signup/card for the SPA's client with this PKCE challenge; returns the register_token. */
async function startCardSignup(origin: string, card: { cardnumber: string; cvc: string }, email: string, p: Pkce): Promise<string> {
  const res = await post(origin, '/api/signup/card', {
    json: cardSignupBody(origin, card, email, { state: 'race-state', code_challenge: p.challenge }),
  });
  expect(resultCode(res), res.text).toBe(0);
  return String(res.json?.register_token);
}

const flowOf = (sys: RaceSystem, registerToken: string) =>
  sys.db.kysely.selectFrom('signup_flows').selectAll().where('token_hash', '=', sha256(registerToken)).executeTakeFirstOrThrow();

/**
 * Races one code step of a flow (SMS OTP, PIN) whose success sends the mail code: exactly one
 * request passes, the step's secret is used, exactly one mail code is stored and one mail queued.
 */
async function raceCodeStep(sys: RaceSystem, p: { token: string; email: string; path: string; body: object; purpose: string }) {
  await raceForOne(() => post(sys.origin, p.path, { json: { register_token: p.token, ...p.body } }), succeeded, STEP_REFUSED);
  const flow = await flowOf(sys, p.token);
  expect(flow.state).toBe('email_otp');
  const [used, ...more] = await secretsOf(sys.db, flow.id, p.purpose);
  expect(more).toEqual([]);
  expect(used?.consumed_at).not.toBeNull();
  expect(await secretsOf(sys.db, flow.id, 'signup_email'), 'mail codes stored').toHaveLength(1);
  expect(await outboxTo(sys.db, p.email), 'mails queued').toHaveLength(1);
}

describe('sign-up secrets raced by 100 parallel redemptions (SQLite)', () => {
  const sys = withRaceSystem('sqlite');

  describe('card sign-up by SMS, one register_token through every step', () => {
    const email = freshEmail('sms');
    const challenge = pkce();
    let token = '';

    it('the SMS code moves the flow on once and sends one mail code', async () => {
      token = await startCardSignup(sys.origin, CARDS.sms, email, challenge);
      const code = await waitForCode(sys.origin, 'sms', CARDS.sms.mobile);
      await raceCodeStep(sys, { token, email, path: '/api/signup/sms', body: { onetime_password: code }, purpose: 'signup_sms' });
    });

    it('the mail code moves the flow to the terms once', async () => {
      const code = await waitForCode(sys.origin, 'mail', email);
      await raceForOne(() => post(sys.origin, '/api/signup/otp', { json: { register_token: token, onetime_password: code } }), succeeded, STEP_REFUSED);
      const flow = await flowOf(sys, token);
      expect(flow.state).toBe('terms');
      const secrets = await secretsOf(sys.db, flow.id, 'signup_email');
      expect(secrets).toHaveLength(1);
      expect(secrets[0]?.consumed_at).not.toBeNull();
    });

    it('terms_accept with the register_token creates exactly one member with one card', async () => {
      const accept = () => post(sys.origin, '/api/signup/terms_accept', { json: { register_token: token, client_id: 'SIAP009' } });
      await raceForOne(accept, succeeded, STEP_REFUSED);
      const users = await sys.db.kysely.selectFrom('users').select('id').where('email', '=', email).execute();
      expect(users).toHaveLength(1);
      const userId = users[0]!.id;
      const flow = await flowOf(sys, token);
      expect(flow).toMatchObject({ state: 'authorize', user_id: userId });
      const cards = await sys.db.kysely.selectFrom('sub_users').select('user_id').where('esid', '=', JSON.parse(flow.card_json).esid).execute();
      expect(cards).toEqual([{ user_id: userId }]);
      expect(await eventsOf(sys.db, userId, 'signup')).toHaveLength(1);
    });

    it('the authorize hand-off with the register_token issues exactly one authorization code', async () => {
      const spa = spaClient(sys.origin);
      const query = authorizeQuery({ ...spa, state: 'race-state', scope: WEB_SCOPE, challenge: challenge.challenge });
      const location = (a: { headers: Headers }) => new URL(a.headers.get('location') ?? 'http://invalid/');
      // Every answer redirects to the client (RFC 6749 section 4.1.2.1): with a code, or with access_denied.
      const handOff = () => post(sys.origin, `/api/signup/authorize?${query.toString()}`, { form: { register_token: token } });
      const { answer } = await raceForOne(
        handOff,
        (a) => a.status === 303 && location(a).searchParams.has('code'),
        (a) => a.status === 303 && location(a).searchParams.get('error') === 'access_denied',
      );
      expect(`${location(answer).origin}${location(answer).pathname}`).toBe(spa.redirectUri);
      const userId = await userIdOf(sys.db, email);
      const codes = await sys.db.kysely.selectFrom('auth_codes').select('code_hash').where('user_id', '=', userId).execute();
      expect(codes).toEqual([{ code_hash: sha256(location(answer).searchParams.get('code')!) }]);
      expect((await flowOf(sys, token)).state).toBe('done');
    });
  });

  it('the PIN step of a card sign-up goes on once and sends one mail code', async () => {
    const email = freshEmail('pin');
    const token = await startCardSignup(sys.origin, CARDS.pin, email, pkce());
    await raceCodeStep(sys, { token, email, path: '/api/signup/pin', body: { pin: CARDS.pin.pin }, purpose: 'signup_pin' });
  });

  it("the open sign-up's activation link creates exactly one member", async () => {
    const email = freshEmail('activation');
    const onetimeToken = await registerOpen(sys.origin, email);
    const activate = () => post(sys.origin, '/api/signup/open/otp', { json: { onetime_token: onetimeToken } });
    await raceForOne(activate, succeeded, refusedWith(902));
    const users = await sys.db.kysely.selectFrom('users').select('id').where('email', '=', email).execute();
    expect(users).toHaveLength(1);
    expect(await eventsOf(sys.db, users[0]!.id, 'signup')).toHaveLength(1);
    expect(await sys.db.kysely.selectFrom('open_signups').select('id').where('email', '=', email).execute()).toEqual([]);
    const link = await sys.db.kysely.selectFrom('verifications').select('consumed_at').where('secret_hash', '=', sha256(onetimeToken)).execute();
    expect(link).toHaveLength(1);
    expect(link[0]?.consumed_at).not.toBeNull();
  });
});
