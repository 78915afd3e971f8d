import { createHash, randomBytes } from 'node:crypto';
import { WEB_SCOPE } from '@sso/contracts/scopes';

/**
 * The one OAuth test client (RFC 6749 section 4.1 with PKCE, RFC 7636): what a member's login is on
 * the wire, written once for every test tool. The builders say what is sent (the authorize query,
 * the login form as the SPA's hidden form posts it, the token grants) and read the code out of the
 * 303; the HTTP client below sends them over loopback as a partner or an attacker would. The
 * in-process tests send the same builders through inject() (test-app-core.ts) and the benchmark
 * through its keep-alive pool (bench/lib/flows.ts); only the transport differs.
 */

/** The SPA's own client (config/clients.json): public, its redirect URI under the system's origin. */
export const SPA_CLIENT_ID = 'SIAP009';
export const spaRedirect = (origin: string) => `${origin}/content/oauth/callback`;
export const spaClient = (origin: string) => ({ clientId: SPA_CLIENT_ID, redirectUri: spaRedirect(origin) });
/** A demo partner's callback page (config/clients.json). */
export const partnerRedirect = (origin: string, clientId: string) => `${origin}/dev/partner/${clientId}/callback`;

export interface Pkce {
  verifier: string;
  challenge: string;
}

/** The S256 challenge of a verifier (RFC 7636 section 4.2). */
export const s256 = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');

/** A verifier (a fresh random one unless told) and its S256 challenge. */
export function pkce(verifier = randomBytes(32).toString('base64url')): Pkce {
  return { verifier, challenge: s256(verifier) };
}

/** RFC 7636 appendix B's verifier and its challenge, for the tests whose proof is fixed. */
export const FIXED_PKCE = pkce('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk');

export interface AuthorizeQuery {
  clientId: string;
  redirectUri: string;
  /** Left out when undefined, as an attacker's form may leave it (state is optional: RFC 6749 section 4.1.1). */
  state?: string | undefined;
  /** The scope asked for; left out when undefined, which grants the client's own (docs/decisions/0010-scopes-and-audience.md). */
  scope?: string | undefined;
  challenge: string;
  method?: string;
  /** Replaces or removes (undefined) parameters, for the attack checks. */
  override?: Record<string, string | undefined>;
}

/** The authorize request's query (RFC 6749 section 4.1.1, RFC 7636 section 4.3). */
export function authorizeQuery(q: AuthorizeQuery): URLSearchParams {
  const params: Record<string, string | undefined> = {
    client_id: q.clientId,
    redirect_uri: q.redirectUri,
    state: q.state,
    scope: q.scope,
    response_type: 'code',
    code_challenge: q.challenge,
    code_challenge_method: q.method ?? 'S256',
    ...q.override,
  };
  return new URLSearchParams(Object.entries(params).filter((e): e is [string, string] => e[1] !== undefined));
}

export interface LoginForm {
  user: string;
  password: string;
  terms?: readonly string[] | undefined;
  /** The login step's ticket (one password hash per login), posted as the SPA posts it. */
  ticket?: string | undefined;
  /** The form's reCAPTCHA token, which a post without a live ticket needs (decision 0011); undefined sends none. */
  recaptcha?: string | undefined;
}

/** The login form as the SPA's hidden form posts it to the authorize endpoint. */
export function loginForm(f: LoginForm): URLSearchParams {
  const form = new URLSearchParams({ user_mail: f.user, user_pass: f.password });
  for (const t of f.terms ?? []) form.append('terms', t);
  if (f.ticket !== undefined) form.set('login_ticket', f.ticket);
  if (f.recaptcha !== undefined) form.set('recaptcha_token', f.recaptcha);
  return form;
}

/** The code of an authorize answer: a 303 to the redirect URI with `code`, or an error naming what came back. */
export function codeIn(status: number, location: string | undefined, body = ''): string {
  const code = location ? new URL(location).searchParams.get('code') : null;
  if (status !== 303 || !code) throw new Error(`no code: ${status} ${location ?? body.slice(0, 200)}`);
  return code;
}

/** The authorization code grant (RFC 6749 section 4.1.3) with the PKCE verifier. */
export const codeGrant = (g: { code: string; clientId: string; redirectUri: string; verifier: string; terminalId?: string | undefined }) => ({
  grant_type: 'authorization_code',
  code: g.code,
  client_id: g.clientId,
  redirect_uri: g.redirectUri,
  code_verifier: g.verifier,
  ...(g.terminalId === undefined ? {} : { terminal_id: g.terminalId }),
});

/** The refresh grant (RFC 6749 section 6) of the SPA's client. */
export const refreshGrant = (refreshToken: string, terminalId: string) => ({
  grant_type: 'refresh_token',
  refresh_token: refreshToken,
  client_id: SPA_CLIENT_ID,
  terminal_id: terminalId,
});

export const basicAuth = (id: string, secret: string) => ({ authorization: `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}` });
export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** Net Answer's (SIAP004) development client credentials (docs/demo.md "Demo data"). */
export const NET_ANSWER_AUTH = basicAuth('SIAP004', 'demo-secret-SIAP004');

export interface Tokens {
  access_token: string;
  refresh_token: string;
  expires_in: number;
  token_type: string;
}

// ---- Over loopback: real requests through Node's fetch, nothing in-process. ----

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
  form?: Record<string, string | readonly string[] | undefined> | URLSearchParams;
  /** A raw body, sent with whatever content type `headers` says. */
  raw?: string;
  token?: string;
  headers?: Record<string, string>;
}

export const formBody = (fields: Record<string, string | readonly string[] | undefined> | URLSearchParams) => {
  if (fields instanceof URLSearchParams) return fields.toString();
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(fields)) for (const one of v === undefined ? [] : typeof v === 'string' ? [v] : v) p.append(k, one);
  return p.toString();
};

/** POSTs to `path` of the system and reads the answer; redirects are not followed. */
export async function post(origin: string, path: string, o: PostOptions = {}): Promise<Answer> {
  const headers: Record<string, string> = { ...(o.token ? bearer(o.token) : {}) };
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

export interface AuthorizeRequest {
  user: string;
  password: string;
  /** The SPA's client unless told; the SPA's client asks for its scope as the SPA does, another gets its own (decision 0010). */
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
  const query = authorizeQuery({
    clientId: r.clientId ?? spa.clientId,
    redirectUri: r.redirectUri ?? spa.redirectUri,
    state: r.state ?? 'state-abuse',
    scope: r.clientId === undefined ? WEB_SCOPE : undefined,
    challenge: (r.pkce ?? pkce()).challenge,
    ...(r.query ? { override: r.query } : {}),
  });
  const form = loginForm({ user: r.user, password: r.password, terms: r.terms, recaptcha: r.recaptcha === '' ? undefined : (r.recaptcha ?? 'abuse-suite') });
  return post(origin, `/api/auth/authorize?${query.toString()}`, { form });
}

/** The code of a successful authorize answer (303 to the redirect URI), or an error naming what came back. */
export const codeOf = (a: Answer): string => codeIn(a.status, a.headers.get('location') ?? undefined, a.text);

export const tokenRequest = (origin: string, fields: Record<string, string | undefined>, headers: Record<string, string> = {}) =>
  post(origin, '/api/auth/token', { form: fields, headers });

/** The SPA client's code exchange; `extra` replaces or removes (undefined) fields. */
export async function exchange(origin: string, code: string, p: Pkce, extra: Record<string, string | undefined> = {}): Promise<Answer> {
  const spa = spaClient(origin);
  return tokenRequest(origin, { ...codeGrant({ code, ...spa, verifier: p.verifier, terminalId: 'terminal-abuse' }), ...extra });
}

/** Logs a member in through the whole code flow of the SPA's client and returns the tokens; `scope`: another than the SPA's own. */
export async function login(origin: string, user: string, password: string, scope?: string): Promise<Tokens> {
  const p = pkce();
  const res = await exchange(origin, codeOf(await authorize(origin, { user, password, pkce: p, ...(scope ? { query: { scope } } : {}) })), p);
  if (res.status !== 200) throw new Error(`token exchange failed: ${res.status} ${res.text}`);
  return res.json as unknown as Tokens;
}

export const refresh = (origin: string, refreshToken: string, extra: Record<string, string | undefined> = {}) =>
  tokenRequest(origin, { ...refreshGrant(refreshToken, 'terminal-abuse'), ...extra });
