import { expect } from 'vitest';
import { signupStepResponseSchema } from '@sso/contracts/signup';
import { WEB_SCOPE } from '@sso/contracts/scopes';
import { bearer, CHALLENGE, exchange, TEST_ORIGIN, type TestApp, WEB_REDIRECT } from './test-app.ts';
import { AUTHORIZE_PARAMS, CARDS, cardBody, PASSWORD, pushedCardBody } from './signup-bodies.ts';
import { latestCode } from './mailbox.ts';
import { loadConfig } from '../config.ts';
import type { CardMaster } from '../ports/card-master.ts';
import type { FlowRow } from '../modules/signup/flow-repo.ts';
import { loadCardMasterSimulator } from '../ports/card-master-simulator.ts';

/** The valid bodies live in signup-bodies.ts, which the HTTP suites use too. */
export { AUTHORIZE_PARAMS, CARDS, cardBody, PASSWORD, pushedCardBody };

/** A sign-up flow row waiting for its e-mail code, begun at `at` and live `ttlMs`, for the repo tests. */
export const emailOtpFlow = (id: string, at: number, ttlMs: number): FlowRow => ({
  id,
  token_hash: `hash-${id}`,
  state: 'email_otp',
  card_hash: 'card',
  card_json: '{}',
  card_check: 'OtpEmail',
  email: `${id}@example.com`,
  tel: null,
  password_hash: 'x',
  client_id: 'SIAP009',
  authorize_json: '{}',
  user_id: null,
  created_at: at,
  updated_at: at,
  expires_at: at + ttlMs,
  mail_digital: null,
});

let serial = 0;
/** A fresh e-mail address for each sign-up, so that mail codes and message limits never mix. */
export const newEmail = () => `new.member.${++serial}@example.com`;

export const post = (t: TestApp, url: string, payload: unknown) => t.app.inject({ method: 'POST', url, payload: payload as object });

/** The newest code sent to a mobile number or an e-mail address, read from /dev/mailbox.json. */
export async function codeFor(t: TestApp, to: string): Promise<string> {
  const code = await latestCode(t.app, to);
  if (!code) throw new Error(`no code was sent to ${to}`);
  return code;
}

/** POST /api/signup/card, expecting success; returns the register_token and the checked answer. */
export async function startSignup(t: TestApp, card: { cardnumber: string; cvc: string }, email: string, over: Record<string, unknown> = {}) {
  const res = await post(t, '/api/signup/card', cardBody(card, email, over));
  expect(res.statusCode, res.body).toBe(200);
  const body = signupStepResponseSchema.parse(res.json());
  return { token: body.register_token, body };
}

/** Runs the SMS path of the SMS demo card up to the e-mail OTP step. */
export async function smsToEmailStep(t: TestApp, email: string, card: { cardnumber: string; cvc: string; mobile: string } = CARDS.sms) {
  const { token } = await startSignup(t, card, email);
  const res = await post(t, '/api/signup/sms', { onetime_password: await codeFor(t, card.mobile), register_token: token });
  expect(res.json().result_code, res.body).toBe(0);
  return token;
}

/**
 * The SPA's hidden form: POST /api/signup/authorize?<authorize params> with the register_token, from
 * the SPA's own origin as a browser says so (`headers` may say otherwise: http/own-origin-post.ts).
 */
export function postSignupAuthorize(t: TestApp, registerToken: string, over: Record<string, string> = {}, headers: Record<string, string> = { origin: TEST_ORIGIN }) {
  const query = new URLSearchParams({
    client_id: 'SIAP009',
    redirect_uri: WEB_REDIRECT,
    state: 'signup-state',
    scope: WEB_SCOPE,
    response_type: 'code',
    code_challenge: CHALLENGE,
    code_challenge_method: 'S256',
    ...over,
  });
  return postSignupHandOff(t, registerToken, query, headers);
}

/** The SPA's hidden form with exactly `query` (a pushed request's: client_id and request_uri only). */
export function postSignupHandOff(t: TestApp, registerToken: string, query: URLSearchParams, headers: Record<string, string> = { origin: TEST_ORIGIN }) {
  return t.app.inject({
    method: 'POST',
    url: `/api/signup/authorize?${query.toString()}`,
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    payload: new URLSearchParams({ register_token: registerToken }).toString(),
  });
}

/**
 * Ends a sign-up that is at the terms step: terms_accept, the authorize hand-off (303 with a code),
 * the code exchanged at /api/auth/token, and /api/user answering the new member's e-mail.
 */
export async function finishSignup(t: TestApp, registerToken: string, email: string): Promise<string> {
  const accepted = await post(t, '/api/signup/terms_accept', { register_token: registerToken, client_id: 'SIAP009' });
  expect(accepted.statusCode, accepted.body).toBe(200);
  expect(signupStepResponseSchema.parse(accepted.json())).toMatchObject({ result_code: 0, register_token: registerToken });
  const authorized = await postSignupAuthorize(t, registerToken);
  expect(authorized.statusCode, authorized.body).toBe(303);
  const location = new URL(String(authorized.headers.location));
  expect(`${location.origin}${location.pathname}`).toBe(WEB_REDIRECT);
  expect(location.searchParams.get('state')).toBe('signup-state');
  const code = location.searchParams.get('code');
  expect(code).toMatch(/^[A-Za-z0-9_-]{43}$/);
  const tokens = await exchange(t.app, code!);
  expect(tokens.statusCode, tokens.body).toBe(200);
  const access = tokens.json().access_token as string;
  const user = await t.app.inject({ method: 'POST', url: '/api/user', headers: bearer(access) });
  expect(user.json()).toMatchObject({ result_code: 0, email });
  return access;
}

export const countUsers = async (t: TestApp, email: string) =>
  Number((await t.testDb.db.kysely.selectFrom('users').select((eb) => eb.fn.countAll().as('n')).where('email', '=', email).executeTakeFirstOrThrow()).n);

/**
 * The card master simulator over the demo cards, recording the paperless choices it is told
 * (decision 0006), for an app built with `withTestApp(dialect, {}, { cardMaster })`.
 */
export function recordingCardMaster(): { cardMaster: CardMaster; statementChoices: { esid: string; digital: boolean }[] } {
  const real = loadCardMasterSimulator(loadConfig({}).cardMasterFile);
  const statementChoices: { esid: string; digital: boolean }[] = [];
  const cardMaster: CardMaster = {
    ...real,
    async setStatementDelivery(esid, digital) {
      statementChoices.push({ esid, digital });
      await real.setStatementDelivery(esid, digital);
    },
  };
  return { cardMaster, statementChoices };
}
