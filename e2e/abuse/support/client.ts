import { createHash, randomBytes } from 'node:crypto';
import { WEB_SCOPE } from '@sso/contracts/scopes';

/**
 * A plain HTTP client of the running system, as a partner service or an attacker would use it:
 * real requests over loopback (keep-alive, through Node's fetch), nothing in-process.
 */

export interface Answer {
  status: number;
  headers: Headers;
  /** The body parsed as JSON when it is JSON, otherwise undefined. */
  json: Record<string, unknown> | undefined;
  text: string;
}

async function answer(res: Response): Promise<Answer> {
  const text = await res.text();
  let json: Record<string, unknown> | undefined;
  try {
    json = (res.headers.get('content-type') ?? '').includes('json') ? (JSON.parse(text) as Record<string, unknown>) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, json, text };
}

export interface PostOptions {
  /** A JSON body (content type application/json). */
  json?: unknown;
  /** A form body (content type application/x-www-form-urlencoded). */
  form?: Record<string, string | string[] | undefined>;
  /** A raw body, sent with whatever content type `headers` says. */
  raw?: string;
  token?: string;
  headers?: Record<string, string>;
}

export const formBody = (fields: Record<string, string | string[] | undefined>) => {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(fields)) for (const one of v === undefined ? [] : Array.isArray(v) ? v : [v]) p.append(k, one);
  return p.toString();
};

/** POSTs to `path` of the system and reads the answer; redirects are not followed. */
export async function post(origin: string, path: string, o: PostOptions = {}): Promise<Answer> {
  const headers: Record<string, string> = { ...(o.token ? { authorization: `Bearer ${o.token}` } : {}) };
  let body: string | undefined;
  if (o.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(o.json);
  } else if (o.form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = formBody(o.form);
  } else if (o.raw !== undefined) body = o.raw;
  return answer(await fetch(`${origin}${path}`, { method: 'POST', headers: { ...headers, ...o.headers }, body, redirect: 'manual' }));
}

export async function get(origin: string, path: string, headers: Record<string, string> = {}): Promise<Answer> {
  return answer(await fetch(`${origin}${path}`, { headers, redirect: 'manual' }));
}

export interface Pkce {
  verifier: string;
  challenge: string;
}

export function pkce(): Pkce {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** The SPA's own client: public, its redirect URI under the system's origin. */
export const spaClient = (origin: string) => ({ clientId: 'SIAP009', redirectUri: `${origin}/content/oauth/callback` });

export interface AuthorizeRequest {
  user: string;
  password: string;
  clientId?: string;
  redirectUri?: string;
  state?: string;
  pkce?: Pkce;
  /** Replaces or removes (undefined) authorize query parameters, for the attack checks. */
  query?: Record<string, string | undefined>;
  terms?: string[];
  /** The login form's reCAPTCHA token, which a post without the login step's ticket needs (decision 0011); '' sends none. */
  recaptcha?: string;
}

/** Posts the login form to the authorize endpoint as the SPA's hidden form does; the answer is a 303 or an error. */
export async function authorize(origin: string, r: AuthorizeRequest): Promise<Answer> {
  const spa = spaClient(origin);
  const challenge = r.pkce ?? pkce();
  const base: Record<string, string | undefined> = {
    client_id: r.clientId ?? spa.clientId,
    redirect_uri: r.redirectUri ?? spa.redirectUri,
    state: r.state ?? 'state-abuse',
    // The web client asks for its scope as the SPA does; another client gets its own (decision 0010).
    scope: r.clientId === undefined ? WEB_SCOPE : undefined,
    response_type: 'code',
    code_challenge: challenge.challenge,
    code_challenge_method: 'S256',
    ...r.query,
  };
  const query = new URLSearchParams(Object.entries(base).filter((e): e is [string, string] => e[1] !== undefined));
  return post(origin, `/api/auth/authorize?${query.toString()}`, {
    form: { user_mail: r.user, user_pass: r.password, terms: r.terms, recaptcha_token: r.recaptcha === '' ? undefined : (r.recaptcha ?? 'abuse-suite') },
  });
}

/** The code of a successful authorize answer (303 to the redirect URI), or an error naming what came back. */
export function codeOf(a: Answer): string {
  const location = a.headers.get('location');
  const code = location ? new URL(location).searchParams.get('code') : null;
  if (a.status !== 303 || !code) throw new Error(`no code: ${a.status} ${location ?? a.text.slice(0, 200)}`);
  return code;
}

export interface Tokens {
  access_token: string;
  refresh_token: string;
  expires_in: number;
  token_type: string;
}

export const tokenRequest = (origin: string, fields: Record<string, string | undefined>, headers: Record<string, string> = {}) =>
  post(origin, '/api/auth/token', { form: fields, headers });

export async function exchange(origin: string, code: string, p: Pkce, extra: Record<string, string | undefined> = {}): Promise<Answer> {
  const spa = spaClient(origin);
  return tokenRequest(origin, {
    grant_type: 'authorization_code',
    code,
    client_id: spa.clientId,
    redirect_uri: spa.redirectUri,
    code_verifier: p.verifier,
    terminal_id: 'terminal-abuse',
    ...extra,
  });
}

/** Logs a member in through the whole code flow of the SPA's client and returns the tokens; `scope`: another than the SPA's own. */
export async function login(origin: string, user: string, password: string, scope?: string): Promise<Tokens> {
  const p = pkce();
  const res = await exchange(origin, codeOf(await authorize(origin, { user, password, pkce: p, ...(scope ? { query: { scope } } : {}) })), p);
  if (res.status !== 200) throw new Error(`token exchange failed: ${res.status} ${res.text}`);
  return res.json as unknown as Tokens;
}

export const refresh = (origin: string, refreshToken: string, extra: Record<string, string | undefined> = {}) =>
  tokenRequest(origin, { grant_type: 'refresh_token', refresh_token: refreshToken, client_id: 'SIAP009', terminal_id: 'terminal-abuse', ...extra });

export const basicAuth = (id: string, secret: string) => ({ authorization: `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}` });

/** Net Answer's (SIAP004) development client credentials (docs/demo.md "Demo data"). */
export const NET_ANSWER_AUTH = basicAuth('SIAP004', 'demo-secret-SIAP004');

export const DEMO_CARD = { user: 'demo.card@example.com', mobile: '09000000001', password: 'Demo1234' };
export const DEMO_OPEN = { user: 'demo.open@example.com', mobile: '09000000002', password: 'Demo1234' };

/** Runs `n` calls of `fn` at once and returns their results in order. */
export const inParallel = <T>(n: number, fn: (i: number) => Promise<T>): Promise<T[]> => Promise.all(Array.from({ length: n }, (_, i) => fn(i)));
