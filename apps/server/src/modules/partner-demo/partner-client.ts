import { needsHandOffProof } from '../direct-login/hand-off-proof.ts';
import type { OAuthClient } from '../clients/clients.ts';
import type { DemoPage, Row } from './pages.ts';

const TIMEOUT_MS = 5000;

const MEMBER_TYPES: Record<string, string> = { na: 'na（カード会員）', open: 'open（オープン会員）' };

/**
 * The development secret of a demo confidential client: config/clients.json stores the SHA-256 of
 * `demo-secret-<client_id>` (docs/demo.md). A real partner keeps its own secret on its own server.
 */
export const demoSecret = (clientId: string) => `demo-secret-${clientId}`;

/**
 * The RFC 7636 verifier a demo portal app holds (decision 0013): a portal's token is issued with
 * the challenge of this verifier and redeemed with it. A real app makes a fresh one per hand-off.
 */
export const demoVerifier = (clientId: string) => `demo-portal-verifier-${clientId}-0123456789abcdefghij`;

async function post(url: URL, headers: Record<string, string>, body?: URLSearchParams) {
  const res = await fetch(url, { method: 'POST', headers: { accept: 'application/json', ...headers }, body, signal: AbortSignal.timeout(TIMEOUT_MS) });
  let json: Record<string, unknown> = {};
  try {
    const parsed: unknown = await res.json();
    if (parsed && typeof parsed === 'object') json = parsed as Record<string, unknown>;
  } catch {
    // not JSON: shown as an empty answer
  }
  return { status: res.status, json };
}

const text = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? String(v) : '');

/**
 * What a partner's server does with a direct login (decision 0006, "Partner services"): it
 * exchanges the one-time token at this server's /api/auth/direct_login/token as the partner client
 * (a confidential client authenticates with HTTP Basic, RFC 6749 section 2.3.1; a portal app sends
 * its verifier, decision 0013), then calls
 * /api/user with the access token. Real HTTP to the issuer, as another system would call it.
 */
export async function exchangeAsPartner(issuer: string, client: OAuthClient, onetimeToken: string | undefined): Promise<DemoPage> {
  const service = client.name;
  const failed = (lead: string, rows: Row[]): DemoPage => ({ service, heading: 'ログイン連携に失敗しました', ok: false, lead, rows });
  if (!onetimeToken) return failed('ワンタイムトークン（onetime_token）を受け取っていません。', []);

  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
  if (client.type === 'confidential') {
    headers.authorization = `Basic ${Buffer.from(`${client.client_id}:${demoSecret(client.client_id)}`).toString('base64')}`;
  }
  const form = new URLSearchParams({
    grant_type: 'password',
    onetime_token: onetimeToken,
    client_id: client.client_id,
    terminal_id: `demo-partner-${client.client_id}`,
  });
  // A portal app proves it is the app that asked for the token (decision 0013).
  if (needsHandOffProof(client)) form.set('code_verifier', demoVerifier(client.client_id));
  try {
    const token = await post(new URL('/api/auth/direct_login/token', issuer), headers, form);
    if (token.status !== 200 || typeof token.json.access_token !== 'string') {
      return failed('ワンタイムトークンをトークンに交換できませんでした。', [
        ['HTTPステータス', String(token.status)],
        ['error', text(token.json.error)],
        ['error_description', text(token.json.error_description)],
      ]);
    }
    const user = await post(new URL('/api/user', issuer), { authorization: `Bearer ${token.json.access_token}` });
    if (user.status !== 200) {
      return failed('アクセストークンで会員情報を取得できませんでした。', [
        ['HTTPステータス', String(user.status)],
        ['result_code', text(user.json.result_code)],
        ['result_message', text(user.json.result_message)],
      ]);
    }
    return {
      service,
      heading: 'ログイン連携を受け取りました',
      ok: true,
      lead: 'ワンタイムトークンをトークンに交換し、アクセストークンで会員情報を取得しました。',
      rows: [
        ['メールアドレス', text(user.json.email)],
        ['user_id', text(user.json.user_id)],
        ['会員種別（member_type）', MEMBER_TYPES[text(token.json.member_type)] ?? text(token.json.member_type)],
        ['client_id', client.client_id],
        ['アクセストークン', `受け取りました（有効期間 ${text(token.json.expires_in)} 秒）`],
        ['リフレッシュトークン', typeof token.json.refresh_token === 'string' ? '受け取りました' : 'ありません'],
      ],
    };
  } catch (e) {
    return failed('トークンエンドポイントに接続できませんでした。', [['理由', e instanceof Error ? e.message : String(e)]]);
  }
}
