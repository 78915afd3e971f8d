import { expect } from 'vitest';
import { bearer, CHALLENGE, exchange, form, getCode, TEST_ORIGIN, type TestApp } from './test-app.ts';

export const OK = { result_code: 0, result_message: '正常に処理しました。' };
export const TOKEN_INVALID = { result_code: 902, result_message: 'ログインの有効期限が切れたか、既に使用されています。お手数ですが、もう一度お手続きください。' };
export const SERVICE_UNAVAILABLE = { result_code: 902, result_message: 'このサービスにはログインできません。' };
export const CARD_NOT_FOUND = { result_code: 902, result_message: '対象のカードが見つかりません。カード一覧からやり直してください。' };
export const NA_REQUIRED = { result_code: 902, result_message: 'Net Answerをご利用いただくには、Net AnswerのIDとパスワードの登録が必要です。' };
export const PARTNER_SECRET = (clientId: string) => ({
  authorization: `Basic ${Buffer.from(`${clientId}:demo-secret-${clientId}`).toString('base64')}`,
});

export const TERMS_REQUIRED = (terms: string[]) => ({ result_code: 902, result_message: 'このサービスをご利用いただくには、利用規約への同意が必要です。', terms });

/** A portal app's proof fields at issue (decision 0013): the challenge of test-app.ts's VERIFIER. */
export const PROOF = { code_challenge: CHALLENGE, code_challenge_method: 'S256' } as const;

/** The partner services' own terms, accepted at their first login (config/clients.json). */
export const PARTNER_TERMS: Record<string, string[]> = {
  SIAP002: ['ImportantMattersOnLineAccount', 'ServiceOnLineAccount', 'PersonalInfoOnLineAccount'],
  SIAP004: ['ServiceOnNetAnswer'],
};

/** Tokens of a member signed in to a client by the code flow (a portal app by default). */
export async function clientTokens(t: TestApp, clientId = 'SIAP005', user = 'demo.card@example.com', password = 'Demo1234') {
  const redirectUri = `${TEST_ORIGIN}/dev/partner/${clientId}/callback`;
  const code = await getCode(t.app, { clientId, redirectUri, user, password, terms: PARTNER_TERMS[clientId] ?? [] });
  const res = await exchange(t.app, code, {
    client_id: clientId,
    redirect_uri: redirectUri,
    ...(clientId === 'SIAP002' || clientId === 'SIAP004' ? { client_secret: `demo-secret-${clientId}` } : {}),
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { access_token: string; refresh_token: string };
}

export const post = (t: TestApp, url: string, access: string | undefined, payload?: unknown) =>
  t.app.inject({ method: 'POST', url, headers: access ? bearer(access) : {}, ...(payload === undefined ? {} : { payload: payload as object }) });

/** A one-time token for the Bearer's member (/api/auth/user_onetime_token). */
export async function onetimeToken(t: TestApp, access: string, payload: unknown = {}): Promise<string> {
  const res = await post(t, '/api/auth/user_onetime_token', access, payload);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().onetime_token as string;
}

/** Redeems a token at /api/auth/direct_login/token as a client (the web client by default). */
export const redeem = (t: TestApp, token: string, fields: Record<string, string | undefined> = {}, headers: Record<string, string> = {}) =>
  t.app.inject({
    method: 'POST',
    url: '/api/auth/direct_login/token',
    ...form({ grant_type: 'password', onetime_token: token, client_id: 'SIAP009', terminal_id: 'terminal-dl', ...fields }, headers),
  });

/** The e-mail of the member a Bearer token belongs to. */
export const emailOf = async (t: TestApp, access: string) => (await post(t, '/api/user', access)).json().email as string;

/** The member accepts a service's own terms before a hand-off to it (/api/subuser/direct_login/terms_accept, decision 0013). */
export async function acceptClientTermsAs(t: TestApp, access: string, clientId: string): Promise<void> {
  const res = await post(t, '/api/subuser/direct_login/terms_accept', access, { client_id: clientId, terms: PARTNER_TERMS[clientId] });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json().terms).toEqual([]);
}
