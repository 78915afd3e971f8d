import { expect } from 'vitest';
import { bearer, form, loginTokens, tokenRequest, WEB_REDIRECT, type TestApp } from './test-app.ts';
import { newMember } from './recover-kit.ts';

export const OK = { result_code: 0, result_message: '正常に処理しました。' };
export const UA = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

/** A fresh open member (test-support/recover-kit.ts) logged in to the web client. */
export async function loggedInMember(t: TestApp, password?: string) {
  const member = await newMember(t, password);
  const tokens = await loginTokens(t.app, { user: member.email, password: member.password });
  return { ...member, ...tokens };
}

export const call = (t: TestApp, url: string, access: string | undefined, payload: unknown = {}) =>
  t.app.inject({
    method: 'POST',
    url,
    headers: { 'user-agent': UA, ...(access ? bearer(access) : {}) },
    payload: payload as object,
  });

/** /api/auth/login with an id and password (result 0, 200 or 203). */
export const loginCheck = async (t: TestApp, id: string, password: string) =>
  (
    await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { id, password, recaptcha_token: 'dev', client_id: 'SIAP009' } })
  ).json().result_code as number;

/** Asserts that neither the access token nor the refresh token of a session works any more. */
export async function expectSessionDead(t: TestApp, tokens: { access_token: string; refresh_token: string }) {
  expect((await t.app.inject({ method: 'POST', url: '/api/user', headers: bearer(tokens.access_token) })).statusCode).toBe(401);
  const refreshed = await tokenRequest(t.app, {
    grant_type: 'refresh_token',
    refresh_token: tokens.refresh_token,
    client_id: 'SIAP009',
    redirect_uri: WEB_REDIRECT,
    terminal_id: 'terminal-1',
  });
  expect(refreshed.json().error).toBe('invalid_grant');
}

/** The member's log rows of one event, with their device. */
export const eventRows = (t: TestApp, userId: string, event: string) =>
  t.testDb.db.kysely.selectFrom('activity_log').select(['event', 'detail']).where('user_id', '=', userId).where('event', '=', event).execute();

/** Logs the session out (RFC 7009), as the SPA's logout does. */
export const logout = (t: TestApp, tokens: { access_token: string; refresh_token: string }) =>
  t.app.inject({
    method: 'POST',
    url: '/api/auth/revoke',
    ...form({ token: tokens.refresh_token, token_type_hint: 'refresh_token', client_id: 'SIAP009' }, bearer(tokens.access_token)),
  });
