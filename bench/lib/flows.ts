import { authorizeQuery, basicAuth, bearer, codeGrant, dpopProof, loginForm, pkce, refreshGrant, SPA_CLIENT_ID, spaRedirect, type DpopKey, type Pkce, type SoftAuthenticator } from '@sso/server/test-support';
import type { HttpAnswer, HttpClient } from './http.ts';
import { OK, failed, type Outcome } from './stats.ts';

/**
 * The member operations the load tools drive, each as the SPA or a partner sends it over HTTP
 * (SPEC.md section 7). Every operation checks the answer's meaning, not just its status: a 200
 * introspection saying `active: false` or a card list without the member's card is a failure too.
 */

/** A load member: its login and the current link of its refresh rotation chain (RFC 9700 section 4.14.2). */
export interface Member {
  email: string;
  password: string;
  /** The member's browser: its device cookie (a returning browser, decision 0024) and its passkey cookie. */
  deviceCookie: string;
  passkeyCookie: string;
  /** The member's passkey, on a software authenticator of the bench's origin. */
  authenticator: SoftAuthenticator;
  /** The terminal the member's token family is bound to; a refresh must name it. */
  terminalId: string;
  access: string;
  refresh: string;
  /** The member's second session, with `openid`: its refresh answers a new ID token too (decision 0025). */
  openid: { terminalId: string; refresh: string };
  /** The member's third session, bound to a DPoP key of its own (RFC 9449): its refresh sends a proof of that key. */
  dpop: { terminalId: string; refresh: string; key: DpopKey };
  /** The member's family at Net Answer (PARTNER_CLIENT_ID), without `openid` and without a terminal, as its server holds it. */
  partner: { refresh: string };
}

/** Net Answer, the confidential client that introspects and whose families `partnerRefresh` rotates (docs/demo.md "Demo data"). */
export const PARTNER_CLIENT_ID = 'SIAP004';
/** Its client_secret_basic (RFC 6749 section 2.3.1), for the introspection and the partner's refresh. */
let partnerClient = basicAuth(PARTNER_CLIENT_ID, `demo-secret-${PARTNER_CLIENT_ID}`);
/**
 * The confidential clients' secrets of the system under load, `<prefix><client_id>`: the demo ones
 * (config/clients.json) unless the bench runs the production build with its own (bench/lib/system.ts).
 */
export const useClientSecrets = (prefix: string) => {
  partnerClient = basicAuth(PARTNER_CLIENT_ID, `${prefix}${PARTNER_CLIENT_ID}`);
};

export type Operation = (http: HttpClient, m: Member) => Promise<Outcome>;

const parse = (a: HttpAnswer): Record<string, unknown> => {
  try {
    return JSON.parse(a.text) as Record<string, unknown>;
  } catch {
    return {};
  }
};

/** "HTTP 400 invalid_grant", "HTTP 200 result_code 901": short enough to count failures by. */
const httpKind = (a: HttpAnswer): string => {
  const j = parse(a);
  const why = typeof j.error === 'string' ? j.error : j.result_code !== undefined ? `result_code ${String(j.result_code)}` : '';
  return `HTTP ${a.status}${why ? ` ${why}` : ''}`;
};

const takeTokens = (m: Member, a: HttpAnswer): Outcome => {
  const j = parse(a);
  if (a.status !== 200 || typeof j.access_token !== 'string' || typeof j.refresh_token !== 'string') return failed(httpKind(a));
  m.access = j.access_token;
  m.refresh = j.refresh_token;
  return OK;
};

/**
 * A login's code exchange: its new family replaces the member's chain of the same kind. The login
 * asks for the client's whole scope list, `openid` among it on a checkout that has it: such a family
 * answers an ID token (OpenID Connect Core 1.0 section 3.1.3.3) and each of its refreshes signs a new
 * one (section 12.2), so it becomes the member's `openid` session on the login's terminal, and the
 * plain chain that `refresh` measures stays plain.
 */
const takeLogin = (m: Member, a: HttpAnswer): Outcome => {
  const j = parse(a);
  if (typeof j.id_token !== 'string') return takeTokens(m, a);
  if (a.status !== 200 || typeof j.access_token !== 'string' || typeof j.refresh_token !== 'string') return failed(httpKind(a));
  m.access = j.access_token;
  m.openid = { terminalId: m.terminalId, refresh: j.refresh_token };
  return OK;
};

/**
 * The login form's POST to the authorize endpoint with the PKCE S256 challenge (RFC 7636) of `proof`,
 * as the harness's OAuth client writes it (apps/server/src/test-support/oauth-client.ts).
 */
async function postAuthorize(http: HttpClient, m: Member, proof: Pkce, ticket?: string): Promise<{ code?: string; redirectUri: string; failure?: Outcome }> {
  const redirectUri = spaRedirect(http.origin);
  const query = authorizeQuery({
    clientId: SPA_CLIENT_ID,
    redirectUri,
    state: 'bench',
    // No scope: the client's whole list (decision 0010), the same grant as the SPA's, and a request an
    // older checkout takes too (bench:compare), whatever scopes were added since.
    scope: '',
    challenge: proof.challenge,
  });
  const authorized = await http.post(
    `/api/auth/authorize?${query.toString()}`,
    { form: loginForm({ user: m.email, password: m.password, recaptcha: 'bench', ticket }) },
    // As the SPA's browser posts it: its device cookie and the issuer's Origin, so that the SSO session starts (http/own-origin-post.ts).
    { cookie: `sso_device=${m.deviceCookie}`, origin: http.origin },
  );
  const params = authorized.location ? new URL(authorized.location).searchParams : undefined;
  const code = params?.get('code') ?? undefined;
  if (authorized.status !== 303 || !code) return { redirectUri, failure: failed(`authorize HTTP ${authorized.status} ${params?.get('error') ?? ''}`.trim()) };
  return { code, redirectUri };
}

/**
 * The login form's POST alone (SPEC.md section 4): the password check and a single-use code in the
 * 303, without the exchange. The code is left to expire; the member's chain is untouched.
 */
export const authorize: Operation = async (http, m) => (await postAuthorize(http, m, pkce())).failure ?? OK;

/**
 * Login (SPEC.md section 4): the login form's POST to the authorize endpoint (argon2id verify, a
 * single-use code) and the SPA's code exchange with PKCE S256 (RFC 7636). The new family replaces
 * the member's chain; the old family is left alive, as a second device's session would be.
 */
export const login: Operation = async (http, m) => {
  const proof = pkce();
  const { code, redirectUri, failure } = await postAuthorize(http, m, proof);
  if (failure || !code) return failure ?? failed('authorize without code');
  const exchanged = await http.post('/api/auth/token', { form: codeGrant({ code, clientId: SPA_CLIENT_ID, redirectUri, verifier: proof.verifier, terminalId: m.terminalId }) });
  return takeLogin(m, exchanged);
};

/**
 * The password login as the SPA sends it (login-page.tsx; decision 0011): the login step (the one
 * argon2id verification, answered with a single-use ticket), the authorize form's POST with the
 * ticket (no second hash) and the code exchange with PKCE S256 (RFC 7636). The new family replaces
 * the member's chain, as `login`'s does.
 */
export const passwordLogin: Operation = async (http, m) => {
  const browser = { cookie: `sso_device=${m.deviceCookie}`, origin: http.origin };
  const stepped = await http.post('/api/auth/login', { json: { id: m.email, password: m.password, recaptcha_token: 'bench', client_id: SPA_CLIENT_ID } }, browser);
  const j = parse(stepped);
  if (stepped.status !== 200 || j.result_code !== 0 || typeof j.login_ticket !== 'string') return failed(`login step ${httpKind(stepped)}`);
  const proof = pkce();
  const { code, redirectUri, failure } = await postAuthorize(http, m, proof, j.login_ticket);
  if (failure || !code) return failure ?? failed('authorize without code');
  const exchanged = await http.post('/api/auth/token', { form: codeGrant({ code, clientId: SPA_CLIENT_ID, redirectUri, verifier: proof.verifier, terminalId: m.terminalId }) });
  return takeLogin(m, exchanged);
};

/**
 * The passkey sign-in (decision 0024) as the login page runs it: the challenge for this browser, the
 * authenticator's assertion, the login step's answer with its ticket, and the authorize form's POST
 * with the ticket and no password, answered with a single-use code (not exchanged, as `authorize`).
 */
export const passkeySignIn: Operation = async (http, m) => {
  const browser = { cookie: `sso_passkey=${m.passkeyCookie}` };
  const asked = await http.post('/api/auth/passkey/login/options', { json: { client_id: SPA_CLIENT_ID } }, browser);
  const options = parse(asked).options as Record<string, unknown> | undefined;
  if (asked.status !== 200 || !options) return failed(`options ${httpKind(asked)}`);
  const answered = await http.post('/api/auth/passkey/login', { json: { client_id: SPA_CLIENT_ID, credential: m.authenticator.authenticate(options) } }, browser);
  const j = parse(answered);
  if (answered.status !== 200 || typeof j.login_ticket !== 'string' || typeof j.id !== 'string') return failed(`passkey ${httpKind(answered)}`);
  return (await postAuthorize(http, { ...m, email: j.id, password: '' }, pkce(), j.login_ticket)).failure ?? OK;
};

/**
 * The refresh grant: the next link of the member's plain rotation chain (RFC 6749 section 6), checked
 * to answer no ID token (the one with `openid` is `refreshOpenid`).
 */
export const refresh: Operation = async (http, m) => {
  const a = await http.post('/api/auth/token', { form: refreshGrant(m.refresh, m.terminalId) });
  if (a.status === 200 && typeof parse(a).id_token === 'string') return failed('plain refresh with an ID token');
  return takeTokens(m, a);
};

/**
 * A partner's refresh grant (RFC 6749 section 6), as Net Answer's server sends it: client_secret_basic
 * (RFC 6749 section 2.3.1), so that the server reads the client's failure counters and checks its
 * secret before it rotates (decision 0038), and no terminal. Checked to answer no ID token: this is
 * the refresh node-oidc-provider's (bench/lib/peer.ts, client_secret_basic too) is weighed against.
 */
export const partnerRefresh: Operation = async (http, m) => {
  const a = await http.post('/api/auth/token', { form: { grant_type: 'refresh_token', refresh_token: m.partner.refresh } }, partnerClient);
  const j = parse(a);
  if (a.status !== 200 || typeof j.access_token !== 'string' || typeof j.refresh_token !== 'string') return failed(httpKind(a));
  if (typeof j.id_token === 'string') return failed('partner refresh with an ID token');
  m.partner.refresh = j.refresh_token;
  return OK;
};

/**
 * The refresh grant of the member's session with `openid` (OpenID Connect Core 1.0 section 12.2): the
 * same rotation, and a new ID token signed with the server's current key, checked to be there.
 */
export const refreshOpenid: Operation = async (http, m) => {
  const a = await http.post('/api/auth/token', { form: refreshGrant(m.openid.refresh, m.openid.terminalId) });
  const j = parse(a);
  if (a.status !== 200 || typeof j.refresh_token !== 'string') return failed(httpKind(a));
  if (typeof j.id_token !== 'string') return failed('refresh with openid without an ID token');
  m.openid.refresh = j.refresh_token;
  return OK;
};

/**
 * The refresh grant of the member's DPoP-bound session (RFC 9449 section 5; docs/decisions/0037-dpop.md):
 * the same rotation, with a new proof of the session's key each time, which the server checks (its
 * signature, claims and single use) before it rotates. The proof is signed here, in the load driver.
 */
export const refreshDpop: Operation = async (http, m) => {
  const proof = await dpopProof(m.dpop.key, { htm: 'POST', htu: `${http.origin}/api/auth/token`, iat: Math.floor(Date.now() / 1000) });
  const a = await http.post('/api/auth/token', { form: refreshGrant(m.dpop.refresh, m.dpop.terminalId) }, { dpop: proof });
  const j = parse(a);
  if (a.status !== 200 || typeof j.refresh_token !== 'string') return failed(httpKind(a));
  if (j.token_type !== 'DPoP') return failed('DPoP refresh answered a Bearer pair');
  m.dpop.refresh = j.refresh_token;
  return OK;
};

/** A partner's introspection of the member's access token (RFC 7662), with its client credentials. */
export const introspect: Operation = async (http, m) => {
  const a = await http.post('/api/subuser/introspect', { form: { token: m.access, token_type_hint: 'access_token' } }, partnerClient);
  if (a.status !== 200) return failed(httpKind(a));
  return parse(a).active === true ? OK : failed('introspection inactive');
};

const memberRead = (path: string, check: (j: Record<string, unknown>) => boolean, what: string): Operation => async (http, m) => {
  const a = await http.post(path, { json: {} }, bearer(m.access));
  const j = parse(a);
  if (a.status !== 200 || j.result_code !== 0) return failed(httpKind(a));
  return check(j) ? OK : failed(what);
};

/** The card list (POST /api/subuser/cards): the seeded member owns one card. */
export const cards = memberRead('/api/subuser/cards', (j) => Array.isArray(j.saison_subusers) && j.saison_subusers.length > 0, 'card list without the card');

/** The member's own record (POST /api/user). */
export const user = memberRead('/api/user', (j) => typeof j.user_id === 'string', 'user answer without user_id');

export const OPERATIONS = { login, authorize, passwordLogin, passkeySignIn, refresh, partnerRefresh, refreshOpenid, refreshDpop, introspect, cards, user } satisfies Record<string, Operation>;
export type OperationName = keyof typeof OPERATIONS;
