import type { AdminClientView } from '@sso/contracts/admin-clients';

/*
 * A partner client's authentication and signing settings as the console shows and edits them
 * (decisions 0034 to 0038): the method a client type allows, and a JWK Set typed as JSON.
 */

/** A method a client names, or '' for none named (the view's null; the form's select value). */
type AuthMethod = NonNullable<AdminClientView['token_endpoint_auth_method']> | '';

/**
 * Each authentication method (RFC 7591 section 2) in the console's words, and '' for none named: a
 * confidential client's secret in the Basic header or the form (decision 0038), what openid-client 6
 * and most libraries send without being told (client_secret_post), so the registration's default.
 */
export const AUTH_METHOD_LABELS: Record<AuthMethod, string> = {
  '': '指定なし（Basic・フォームどちらも可）',
  client_secret_basic: 'client_secret_basic（シークレット、Basic認証）',
  client_secret_post: 'client_secret_post（シークレット、フォーム）',
  private_key_jwt: 'private_key_jwt（署名JWT、公開鍵）',
  none: 'none（認証なし、PKCEのみ）',
};

/** A client's method as the list shows it: null is none named. */
export const authMethodLabel = (method: AdminClientView['token_endpoint_auth_method']): string => AUTH_METHOD_LABELS[method ?? ''];

/** The methods a client of `type` may have (clients.ts authMethodProblems), the default first: none for a public client only. */
export const authMethodsFor = (type: AdminClientView['type']): AuthMethod[] =>
  type === 'public' ? ['none'] : ['', 'client_secret_basic', 'client_secret_post', 'private_key_jwt'];

export const JWKS_MESSAGES = {
  notJson: 'JWKSをJSONとして読み取れません。括弧や引用符、カンマをご確認ください。',
  notKeySet: 'JWKSは {"keys": [ … ]} の形（JWK Set）で、鍵を1つ以上オブジェクトで入力してください。',
} as const;

/**
 * The JWK Set typed in the JWKS field: undefined when empty, or what is wrong with it in Japanese.
 * The server checks the keys themselves (public RSA or EC keys only, RFC 7517 section 5).
 */
export function jwksOf(text: string): { jwks: { keys: Record<string, unknown>[] } | undefined } | { error: string } {
  if (text.trim() === '') return { jwks: undefined };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { error: JWKS_MESSAGES.notJson };
  }
  const keys = typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as { keys?: unknown }).keys : undefined;
  if (!Array.isArray(keys) || keys.length === 0 || !keys.every((k) => typeof k === 'object' && k !== null && !Array.isArray(k))) return { error: JWKS_MESSAGES.notKeySet };
  return { jwks: { keys: keys as Record<string, unknown>[] } };
}

/** The keys a client registered for private_key_jwt, in a word. */
export const keysLabel = (c: Pick<AdminClientView, 'jwks' | 'jwks_uri'>): string =>
  c.jwks ? `JWKS（鍵${c.jwks.keys.length}件）` : c.jwks_uri ? `jwks_uri: ${c.jwks_uri}` : 'なし';
