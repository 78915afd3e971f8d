import { decodeJwt } from 'jose';
import { beforeEach, describe, expect, it } from 'vitest';
import { LIMITS } from '@sso/contracts/constants';
import { sha256, sha256Base64Url } from '../../lib/secrets.ts';
import { dpopKey, dpopProof } from '../../test-support/dpop-kit.ts';
import { readMailbox } from '../../test-support/mailbox.ts';
import { NET_ANSWER_AUTH, partnerRedirect } from '../../test-support/oauth-client.ts';
import { PAR_REQUIRED_CLIENT, pushRequest, requirePushedClientsFile } from '../../test-support/par-kit.ts';
import { exchange, TEST_ORIGIN, WEB_REDIRECT, withTestApp } from '../../test-support/test-app.ts';
import { DIALECTS } from '../../test-support/test-db.ts';
import { AUTHORIZE_PARAMS, CARDS, cardBody, codeFor, newEmail, post, postSignupAuthorize, postSignupHandOff, pushedCardBody } from '../../test-support/signup-kit.ts';

/**
 * The card sign-up started from a pushed authorization request (RFC 9126;
 * docs/decisions/0036-pushed-authorization-requests.md): the card step reads the request_uri as the
 * authorize endpoints do, the flow keeps the pushed request, and the end uses it up with one code.
 */

const WEB = 'SIAP009';
const BAD_PAGE = 'URLをご確認ください。';
const location = (res: { headers: Record<string, unknown> }) => new URL(String(res.headers.location));
const byUri = (clientId: string, requestUri: string) => new URLSearchParams({ client_id: clientId, request_uri: requestUri });

describe.each(DIALECTS)('card sign-up from a pushed authorization request (%s)', (dialect) => {
  const t = withTestApp(dialect, { CLIENTS_FILE: requirePushedClientsFile() });
  beforeEach(() => t.clock.advance(LIMITS.signupLockMs));

  /** The web's request pushed as a public client (it names itself), with a state and nonce of its own. */
  const pushWeb = (extra: Record<string, string> = {}, headers: Record<string, string> = {}) =>
    pushRequest(t.app, { ...AUTHORIZE_PARAMS, state: 'pushed-state', nonce: 'pushed-nonce', ...extra }, headers);
  const card = (body: Record<string, unknown>) => post(t, '/api/signup/card', body);
  /** A 901 of the card step naming only `key`, the answer to a bad authorize request there. */
  const expect901 = async (body: Record<string, unknown>, key: string) => {
    const res = await card(body);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toEqual({ result_code: 901, result_message: '入力内容をご確認ください。', validation_errors: [{ key, message: '入力内容をご確認ください。' }] });
  };
  /** Net Answer's request, pushed by its server (it authenticates as at the token endpoint). */
  const pushNetAnswer = () => {
    const { client_id: _web, ...params } = AUTHORIZE_PARAMS;
    return pushRequest(t.app, { ...params, redirect_uri: partnerRedirect(TEST_ORIGIN, PAR_REQUIRED_CLIENT), scope: 'openid' }, NET_ANSWER_AUTH);
  };
  /** A sign-up from the card step to the end of terms_accept: the PIN if the card has one, then the e-mail code. */
  const toAuthorize = async (body: Record<string, unknown>, email: string, pin?: Record<string, string>) => {
    const started = await card(body);
    expect(started.statusCode, started.body).toBe(200);
    const token = String(started.json().register_token);
    if (pin) expect((await post(t, '/api/signup/pin', { register_token: token, ...pin })).json().result_code).toBe(0);
    expect((await post(t, '/api/signup/otp', { register_token: token, onetime_password: await codeFor(t, email) })).json().result_code).toBe(0);
    expect((await post(t, '/api/signup/terms_accept', { register_token: token, client_id: body.client_id })).json().result_code).toBe(0);
    return { token, started: started.json() as Record<string, unknown> };
  };

  it('signs up from a pushed request to one code that exchanges with the PKCE verifier, the request kept as long as the sign-up and then used up', async () => {
    const email = newEmail();
    const requestUri = await pushWeb();
    const { token, started } = await toAuthorize(pushedCardBody(CARDS.mail, email, WEB, requestUri), email);
    // The pushed parameters never pass through the browser: the answer names the client only.
    expect(started).toMatchObject({ result_code: 0, destination_to: 'OtpEmail', client_id: WEB });
    for (const key of ['redirect_uri', 'state', 'code_challenge', 'nonce', 'scope']) expect(started, key).not.toHaveProperty(key);
    // A member slow through the card, the code and the terms: the request lasts as long as the sign-up, past a login's authorization process.
    t.clock.advance(LIMITS.pushedRequestProcessTtlMs + 60_000);

    const handOff = await postSignupHandOff(t, token, byUri(WEB, requestUri));
    expect(handOff.statusCode, handOff.body).toBe(303);
    const back = location(handOff);
    expect(`${back.origin}${back.pathname}`).toBe(WEB_REDIRECT);
    expect(back.searchParams.get('state')).toBe('pushed-state');
    const code = back.searchParams.get('code');
    expect(code).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const tokens = await exchange(t.app, code!);
    expect(tokens.statusCode, tokens.body).toBe(200);
    expect(decodeJwt(String(tokens.json().id_token)).nonce).toBe('pushed-nonce');
    // The code is single use, and so is the request: the hand-off again, the card step again, both refused.
    expect((await exchange(t.app, code!)).json()).toMatchObject({ error: 'invalid_grant' });
    const again = await postSignupHandOff(t, token, byUri(WEB, requestUri));
    expect(again.statusCode).toBe(400);
    expect(again.body).toContain(BAD_PAGE);
    await expect901(pushedCardBody(CARDS.pin, newEmail(), WEB, requestUri), 'request_uri');
  });

  it("refuses an unknown, malformed, expired or another client's request_uri at the card step, before anything is sent", async () => {
    const expiring = await pushWeb();
    t.clock.advance(LIMITS.pushedRequestTtlMs + 1);
    const theirs = await pushNetAnswer();
    const before = (await readMailbox(t.app)).length;
    const email = newEmail();
    for (const requestUri of [`urn:ietf:params:oauth:request_uri:${'x'.repeat(43)}`, 'https://evil.example/request', theirs, expiring]) {
      await expect901(pushedCardBody(CARDS.mail, email, WEB, requestUri), 'request_uri');
    }
    expect((await readMailbox(t.app)).length).toBe(before);
    const flows = await t.testDb.db.kysely.selectFrom('signup_flows').select('id').where('email', '=', email).execute();
    expect(flows).toEqual([]);
  });

  it('refuses a plain request of a client that requires pushed requests at the card step, and takes its pushed one', async () => {
    const plain = { client_id: PAR_REQUIRED_CLIENT, redirect_uri: partnerRedirect(TEST_ORIGIN, PAR_REQUIRED_CLIENT), scope: 'openid' };
    await expect901(cardBody(CARDS.pin, newEmail(), plain), 'request_uri');
    const requestUri = await pushNetAnswer();
    const res = await card(pushedCardBody(CARDS.pin, newEmail(), PAR_REQUIRED_CLIENT, requestUri));
    expect(res.json(), res.body).toMatchObject({ result_code: 0, destination_to: 'Pin', client_id: PAR_REQUIRED_CLIENT, terms: expect.arrayContaining(['ServiceOnNetAnswer']) });
  });

  it('ends a sign-up only with the request it started from, its code bound to the DPoP key of the push', async () => {
    const email = newEmail();
    const key = await dpopKey();
    const proof = await dpopProof(key, { htm: 'POST', htu: `${TEST_ORIGIN}/api/auth/par`, iat: Math.floor(t.clock.now() / 1000) });
    const requestUri = await pushWeb({}, { dpop: proof });
    const { token } = await toAuthorize(pushedCardBody(CARDS.pinBank, email, WEB, requestUri), email, { pin: CARDS.pinBank.pin, a_no: CARDS.pinBank.aNo });
    // Its parameters written out, another pushed request of the same client and PKCE challenge, a changed challenge: access_denied, no code.
    const other = await pushWeb();
    const changed = await pushWeb({ code_challenge: sha256Base64Url('another-verifier-another-verifier-another-verifier') });
    for (const query of [new URLSearchParams({ ...AUTHORIZE_PARAMS, state: 'pushed-state' }), byUri(WEB, other), byUri(WEB, changed)]) {
      const refused = location(await postSignupHandOff(t, token, query));
      expect(refused.searchParams.get('error'), query.toString()).toBe('access_denied');
      expect(refused.searchParams.get('code')).toBeNull();
    }
    // The refusals spent neither the flow nor the other requests; the code is bound to the key as the login's is (RFC 9449 section 10).
    const code = location(await postSignupHandOff(t, token, byUri(WEB, requestUri))).searchParams.get('code');
    expect(code).toBeTruthy();
    const row = await t.testDb.db.kysely.selectFrom('auth_codes').select('dpop_jkt').where('code_hash', '=', sha256(code!)).executeTakeFirstOrThrow();
    expect(row.dpop_jkt).toBe(key.jkt);

    // A sign-up begun with plain parameters does not end with a pushed request either.
    const plainEmail = newEmail();
    const plain = await toAuthorize(cardBody(CARDS.pin, plainEmail), plainEmail, { pin: CARDS.pin.pin });
    expect(location(await postSignupHandOff(t, plain.token, byUri(WEB, other))).searchParams.get('error')).toBe('access_denied');
    expect(location(await postSignupAuthorize(t, plain.token)).searchParams.get('code')).toBeTruthy();
  });
});
