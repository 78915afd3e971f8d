import type { Kysely } from 'kysely';
import { CARDHOLDERS_ONLY_PATH, LIMITS, LOGIN_RETRY_PARAM, type LoginRetryKind } from '@sso/contracts/constants';
import type { z } from 'zod';
import { authorizeQuerySchema, type AuthorizeQuery, type authorizeFormSchema } from '@sso/contracts/auth';
import { TERM_VERSIONS, isTermKey } from '@sso/contracts/terms';
import type { Database } from '../../db/schema.ts';
import { databaseUnavailable } from '../../db/unavailable.ts';
import { inTransaction, oneCommit } from '../../db/one-commit.ts';
import { randomToken, sha256 } from '../../lib/secrets.ts';
import type { RecaptchaVerifier } from '../../ports/recaptcha.ts';
import { logActivity } from '../activity/activity-repo.ts';
import { refusesMember } from '../oauth/cardholders-only.ts';
import { holdMember } from '../account/member-hold-repo.ts';
import { checkCredentials, outstandingTerms, type CredentialCheck, type CredentialDeps } from '../account/credentials-service.ts';
import { redeemLoginTicket, type LoginProof, type RedeemedTicket } from '../account/login-ticket.ts';
import { knownBrowser, noteSignIn, type SignInNoticeDeps } from '../account/new-device-notice.ts';
import { recordTermAcceptance, type UserRow } from '../account/user-repo.ts';
import { isClientEnabled } from '../clients/client-repo.ts';
import type { ClientRegistry, OAuthClient } from '../clients/clients.ts';
import { insertCode } from './code-repo.ts';
import { consumePushedRequest } from './pushed-request-repo.ts';
import { readAuthorizationRequest } from './pushed-request.ts';
import { grantedScope } from './granted-scope.ts';
import { portalReturnParams } from './portal-return.ts';
import { memberPasskey } from '../passkeys/passkey-repo.ts';
import { ACR_NOT_MET, meetsAcrValues } from '../oidc/acr-request.ts';
import type { OidcDeps } from '../oidc/id-token.ts';
import { recaptchaRefused, securityEvent } from '../../lib/security-events.ts';
import type { DpopSettings } from './dpop.ts';

export interface AuthorizeDeps extends CredentialDeps, SignInNoticeDeps, OidcDeps {
  clients: ClientRegistry;
  /** What DPoP proofs are checked against (RFC 9449; oauth/dpop.ts). */
  dpop: DpopSettings;
  issuer: string;
  /** The login form's reCAPTCHA, checked here when no live ticket of the login step came with it (decision 0011). */
  recaptcha: RecaptchaVerifier;
  /** LOGIN_NOTICE: a sign-in from a new browser mails the member (decision 0024). */
  loginNotice?: boolean;
}

/** RFC 6749 section 4.1.2 success and 4.1.2.1 error redirects, with the RFC 9207 `iss` parameter. */
export function redirectTo(uri: string, params: Record<string, string>, state: string, issuer: string): string {
  const url = new URL(uri);
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  if (state) url.searchParams.set('state', state);
  url.searchParams.set('iss', issuer);
  return url.toString();
}

export const stateOf = (rawQuery: Record<string, unknown>) => (typeof rawQuery.state === 'string' ? rawQuery.state : '');

/**
 * RFC 6749 section 4.1.2.1: an error of a request whose client and redirect URI are known goes back
 * to that redirect URI, with the request's state and the RFC 9207 `iss`. The one place such an
 * error redirect is made: the authorize endpoint answers it, and the SPA's question before the form
 * (/api/auth/authorize/check) hands it over for the SPA to follow.
 */
export function errorRedirect(issuer: string, redirectUri: string, rawQuery: Record<string, unknown>, error: string, description: string): string {
  return redirectTo(redirectUri, { error, error_description: description }, stateOf(rawQuery), issuer);
}

/**
 * The SPA's login page with the request's own query (SPEC.md section 2: the login route carries the
 * authorize parameters), as a URL writes it: what a Location header may not hold is percent-encoded.
 */
export function loginPage(issuer: string, rawQueryString: string): string {
  const url = new URL(`${issuer}/content/authorize`);
  url.search = rawQueryString;
  return url.toString();
}

/**
 * Where a login form post that did not sign the member in sends them: back to the SPA's login page with
 * the request's parameters, saying why (`login_result`), so that the page shows what the login step
 * would (SPEC.md section 8, in Japanese; the lock and the suspension read as everywhere else). Never
 * to the partner: a mistyped password, a lock or a suspension is no denied request (RFC 6749 section
 * 4.1.2.1), and the partner's page could only show the member an error in English.
 */
export function retryLoginPage(issuer: string, rawQuery: Record<string, unknown>, why: LoginRetryKind): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(rawQuery)) {
    for (const one of [value].flat()) if (typeof one === 'string' && key !== LOGIN_RETRY_PARAM) query.append(key, one);
  }
  query.set(LOGIN_RETRY_PARAM, why);
  return loginPage(issuer, query.toString());
}

const retryKind = (check: Exclude<CredentialCheck, { ok: true }>): LoginRetryKind =>
  check.reason === 'locked' ? (check.byAddress ? 'address' : 'locked') : check.reason;

/**
 * Checks client_id and redirect_uri before anything else: an unknown client or an unregistered
 * redirect URI is never redirected to (RFC 6749 section 4.1.2.1).
 */
export function resolveClient(clients: ClientRegistry, query: Record<string, unknown>): { client: OAuthClient; redirectUri: string } | undefined {
  const clientId = typeof query.client_id === 'string' ? query.client_id : '';
  const redirectUri = typeof query.redirect_uri === 'string' ? query.redirect_uri : '';
  const client = clients.get(clientId);
  if (!client || !clients.isRegisteredRedirect(client, redirectUri)) return undefined;
  return { client, redirectUri };
}

/**
 * An authorization request the authorize endpoints take: its client and redirect URI, its parameters
 * (`query`: a pushed request's own, RFC 9126 section 4), and for a pushed one the key its code's
 * issue uses up (`pushed`, issueCodeRedirect).
 */
export interface AuthorizeTarget {
  client: OAuthClient;
  redirectUri: string;
  query: Record<string, unknown>;
  pushed?: string | undefined;
  /** The request's query as it came (a pushed request's: its client_id and request_uri), for the login page it may be sent back to. */
  sent?: Record<string, unknown>;
}

/**
 * The request read (a request_uri's pushed request, modules/oauth/pushed-request.ts), resolveClient,
 * and the client enabled in the database now (one read by its key): the authorize endpoints issue a
 * code only to a client a disable has not reached this node's polled copy of the registry for yet
 * (decision 0031). Undefined: the 400 page, never a redirect.
 */
export async function resolveEnabledClient(deps: Pick<AuthorizeDeps, 'clients' | 'db' | 'clock'>, rawQuery: Record<string, unknown>): Promise<AuthorizeTarget | undefined> {
  const request = await readAuthorizationRequest(deps, rawQuery);
  const target = request && resolveClient(deps.clients, request.query);
  if (!target || !(await enabledNow(deps.db, target.client.client_id))) return undefined;
  return { ...target, query: request.query, pushed: request.pushed, sent: rawQuery };
}

/**
 * The client's flag in the database; while the database is away (db/unavailable.ts), this node's
 * copy answers: nothing is issued without the database anyway, and the member is led on to the SPA,
 * which says the service is out (SPEC.md section 8), rather than to the endpoint's refusal page.
 */
const enabledNow = (db: Kysely<Database>, clientId: string) =>
  isClientEnabled(db, clientId).catch((err: unknown) => {
    if (databaseUnavailable(err)) return true;
    throw err;
  });

/** An authorization request of a known client and redirect URI, checked: its query and the scope it is granted, or its RFC 6749 error. */
export type AuthorizeQueryCheck =
  | { ok: true; query: AuthorizeQuery; scope: string }
  | { ok: false; param: string; error: string; description: string };

/**
 * The rest of an authorization request once its client and redirect URI are known (RFC 6749
 * section 4.1.2.1, RFC 7636): response_type code, a PKCE S256 challenge, a scope the client may
 * have. The one check of both the login form's post and the SPA's question before it shows the
 * form (/api/auth/authorize/check).
 */
export function checkAuthorizeQuery(client: OAuthClient, rawQuery: Record<string, unknown>): AuthorizeQueryCheck {
  const q = authorizeQuerySchema.safeParse(rawQuery);
  if (!q.success) {
    const param = String(q.error.issues[0]?.path[0] ?? '');
    if (param === 'response_type') return { ok: false, param, error: 'unsupported_response_type', description: 'response_type must be code' };
    return { ok: false, param, error: 'invalid_request', description: `invalid or missing parameter: ${param} (PKCE with S256 is required)` };
  }
  const scope = grantedScope(client, q.data.scope);
  if (scope === undefined) return { ok: false, param: 'scope', error: 'invalid_scope', description: 'scope is not allowed for this client' };
  return { ok: true, query: q.data, scope };
}

/**
 * What the authorize endpoint would do with a request it does not take: refuse it without a
 * redirect, naming client_id or redirect_uri (RFC 6749 section 4.1.2.1: the member is told, the
 * partner never), or send the error back to the client's registered redirect URI (`redirectTo`).
 */
export type AuthorizeRequestProblem = { param: 'client_id' | 'redirect_uri' | 'request_uri' } | { redirectTo: string };

/** The check's verdict: a problem, or the request the endpoint takes, as it reads it (a pushed request's own parameters). */
export type AuthorizeRequestCheck = AuthorizeRequestProblem | { query: Record<string, unknown> };

/**
 * The SPA's question before it shows the login or card sign-up form (SPEC.md section 2: both carry
 * the authorize parameters): what the authorize endpoint would do with a request it would refuse,
 * or the request as it reads it when it would take it. The same checks in the same order, and for
 * a known client the very error redirect the endpoint answers (errorRedirect), so that a partner's
 * mistake is handled before the member types their password, never after (decision 0019). A
 * request_uri the endpoint would not take (unknown, used, expired, another client's), or a request
 * without one from a client that requires it (RFC 9126 section 5), is named as `request_uri`.
 */
export async function authorizeRequestProblem(
  deps: Pick<AuthorizeDeps, 'clients' | 'db' | 'issuer' | 'clock'>,
  asked: Record<string, unknown>,
): Promise<AuthorizeRequestCheck> {
  const request = await readAuthorizationRequest(deps, asked);
  if (!request) return { param: 'request_uri' };
  const rawQuery = request.query;
  const clientId = typeof rawQuery.client_id === 'string' ? rawQuery.client_id : '';
  // Enabled in the database too, as the endpoint itself asks (resolveEnabledClient): a disable this node has not polled yet.
  if (!deps.clients.get(clientId) || !(await enabledNow(deps.db, clientId))) return { param: 'client_id' };
  const target = resolveClient(deps.clients, rawQuery);
  if (!target) return { param: 'redirect_uri' };
  const q = checkAuthorizeQuery(target.client, rawQuery);
  return q.ok ? { query: rawQuery } : { redirectTo: errorRedirect(deps.issuer, target.redirectUri, rawQuery, q.error, q.description) };
}

/**
 * Where an authorize endpoint sends a member refused a cardholders-only client (SPEC.md section 6):
 * the SPA's page that says so in Japanese and offers the way on. Never the partner: its redirect
 * URI would show the member an OAuth error they can do nothing with.
 */
export const cardholdersOnlyPage = (issuer: string) => `${issuer}/content${CARDHOLDERS_ONLY_PATH}`;

const asList = (v: string | string[] | undefined) => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

/** What a login form post that proved the member came to: the answer, and the sign-in when a code was issued. */
interface SignInOutcome {
  answer: string;
  /** `notice`: a browser the sign-in notice is to note after the answer (noteSignIn). */
  issued?: { user: UserRow; now: number; notice: boolean };
}

/**
 * POST /api/auth/authorize (SPEC.md sections 4 and 7): the login form post. On valid credentials
 * and accepted terms it issues a single-use code, bound to client, redirect URI and PKCE challenge,
 * valid 60 s, and answers the redirect location.
 */
export async function authorize(
  deps: AuthorizeDeps,
  target: AuthorizeTarget,
  form: z.infer<typeof authorizeFormSchema> | undefined,
  /**
   * The coarse device of the request (lib/device.ts), for the activity log, its network address, its
   * device cookie (account/new-device-notice.ts; null for a browser that cannot be known: a cross-site
   * post), mailed about while the sign-in notice is on, and the browser's SSO session the login starts
   * or renews (modules/sso, decision 0026).
   */
  origin: { device: string | null; address: string; deviceCookie?: string | null; session?: SessionStart },
): Promise<string> {
  const rawQuery = target.query;
  const state = stateOf(rawQuery);
  const fail = (error: string, description: string) => errorRedirect(deps.issuer, target.redirectUri, rawQuery, error, description);
  // Back to the login page with the request as it came: a pushed one's request_uri, not what was pushed.
  const retry = (why: LoginRetryKind) => retryLoginPage(deps.issuer, target.sent ?? rawQuery, why);

  const q = checkAuthorizeQuery(target.client, rawQuery);
  if (!q.ok) return fail(q.error, q.description);
  const { scope } = q;
  if (!form) return fail('access_denied', 'login failed');

  const { device } = origin;
  const clientId = target.client.client_id;
  /**
   * The member proved who they are (by the ticket `held` or the password): the client's rule, the
   * terms, then the code in its transaction. `issued`: the code's transaction answered, the sign-in
   * is logged and noted; otherwise `answer` says why not.
   */
  const signIn = async (db: Kysely<Database>, user: UserRow, held: RedeemedTicket | undefined): Promise<SignInOutcome> => {
    const proof = held?.proof ?? 'password';
    const now = deps.clock.now();
    // Before the terms: a member refused the service is told so, not asked to accept its terms.
    if (await refusesMember(db, user.id, clientId)) return { answer: cardholdersOnlyPage(deps.issuer) };

    if (!(await acceptClientTerms({ db }, user.id, target.client, form.terms, now))) return { answer: fail('access_denied', 'terms of use not accepted') };

    const codeChallenge = q.query.code_challenge;
    // The password was checked here, or at the login step whose ticket was redeemed just now, or a passkey
    // was: the session starts proved (decision 0012); by the password only for a member who has not
    // required a passkey (decision 0024).
    const provedAt = proof === 'passkey' || Number(user.require_passkey) !== 1 ? now : null;
    // The browser's SSO session starts (or is renewed) with the code, in its transaction (decision 0026).
    // RFC 8176: the password, or the passkey's kind of key the ticket names (login-ticket.ts).
    const context = { authTime: now, amr: held?.amr ?? ['pwd'], nonce: q.query.nonce ?? null, ssoSessionId: null, session: origin.session };
    const issue = { client: target.client, redirectUri: target.redirectUri, pushed: target.pushed, codeChallenge, scope, userId: user.id, state, device, address: origin.address, provedAt, passkeyId: held?.passkeyId, dpopJkt: q.query.dpop_jkt, ...context };
    // Only while the password checked is still the member's: a change or reset meanwhile refuses the code (member-hold-repo.ts).
    const location = await inTransaction(db, (trx) => issueCodeRedirect({ ...deps, db: trx }, { ...issue, passwordHash: user.password_hash }));
    // The password changed, or the member was suspended, since it was checked: the member signs in again.
    // (A pushed request used up meanwhile ends at the client: issueCodeRedirect answers that itself.)
    if (location === undefined) return { answer: retry('credentials') };
    // The sign-in notice (decision 0024): a known browser's sighting in the code's commit, a new browser after the answer.
    const noticed = deps.loginNotice === true && origin.deviceCookie !== undefined && location !== cardholdersOnlyPage(deps.issuer);
    // The code is issued by now (committed, outside SQLite's one commit): a sighting that fails is left to
    // the notice after the answer, which looks the browser up again (noteSignIn), not made the member's 500.
    const known = noticed && (await knownBrowser(db, { userId: user.id, deviceCookie: origin.deviceCookie ?? null, now }).catch(() => false));
    return { answer: location, issued: { user, now, notice: noticed && !known } };
  };
  // A client that asked for more than this sign-in is (a passkey for phishing-resistant authentication)
  // gets a failed authentication (OpenID Connect Core 1.0 section 5.5.1.1), before any password is
  // checked or counted: the answer says nothing of it (oidc/acr-request.ts, decision 0025).
  const acrNotMet = (amr: string[]) => (meetsAcrValues(amr, q.query.acr_values) ? undefined : { answer: fail('access_denied', ACR_NOT_MET) });

  // The login step's ticket spares the password's second hash (login-ticket.ts). Without a live one this
  // post is a login of its own, and passes what the login step does: reCAPTCHA first (SPEC.md
  // section 7), before anything is counted or hashed, then the password (decision 0011).
  // A passkey sign-in's ticket comes without a password (decision 0024): it is the only way in without one.
  // A live ticket is used up in the code's commit (db/one-commit.ts); a dead one is used up by itself.
  const ticket = form.login_ticket;
  let signedIn: (SignInOutcome & { proof: LoginProof }) | undefined = ticket
    ? await oneCommit(deps.db, async (db) => {
        const held = await redeemLoginTicket({ db, clock: deps.clock }, { ticket, rawId: form.user_mail, clientId });
        return held && { proof: held.proof, ...(acrNotMet(held.amr) ?? (await signIn(db, held.user, held))) };
      })
    : undefined;
  if (!signedIn) {
    const refused = acrNotMet(['pwd']);
    if (refused) return refused.answer;
    // A dead ticket without a password (a passkey sign-in's): the member signs in again.
    if (!form.user_pass) return retry('credentials');
    if (!(await deps.recaptcha.verify(form.recaptcha_token ?? '', 'Authorize', origin.address))) return recaptchaRefused('login', clientId, retry('recaptcha'));
    const check = await checkCredentials(deps, form.user_mail, form.user_pass, { clientId, ...origin });
    if (!check.ok) return retry(retryKind(check));
    signedIn = { proof: 'password', ...(await signIn(deps.db, check.user, undefined)) };
  }
  const { answer: location, issued } = signedIn;
  if (!issued) return location;
  const { user, now } = issued;
  securityEvent({ event: 'login.succeeded', memberId: user.id, clientId, method: signedIn.proof });
  if (issued.notice) {
    const notice = { userId: user.id, email: user.email, deviceCookie: origin.deviceCookie ?? null, device, clientId, now };
    deps.background.run('sign-in notice', () => noteSignIn(deps, notice));
  }
  return location;
}

/**
 * Records the client's terms the member agreed to (the additional-terms screen's `terms`, SPEC.md
 * section 2) and answers whether none is outstanding any more: the authorization continues only then
 * (SPEC.md section 4, "Login").
 */
export async function acceptClientTerms(deps: Pick<AuthorizeDeps, 'db'>, userId: string, client: OAuthClient, terms: string | string[] | undefined, now: number): Promise<boolean> {
  const agreed = new Set(asList(terms));
  for (const key of client.terms) {
    if (agreed.has(key) && isTermKey(key)) await recordTermAcceptance(deps.db, userId, key, TERM_VERSIONS[key], now);
  }
  return (await outstandingTerms(deps.db, userId, client)).length === 0;
}

/**
 * The browser's SSO session a code comes from or starts (modules/sso, decision 0026), decided inside
 * the code's transaction once the member's row is held (member-hold-repo.ts): the session's id, null
 * for none, or undefined when the session the request relies on has ended meanwhile (no code then).
 */
export interface SessionStart {
  save(db: Kysely<Database>, p: { userId: string; authTime: number; amr: string[]; clientId: string }): Promise<string | null | undefined>;
}

/**
 * How and when the member authenticated, carried from the code to the session and its ID tokens
 * (OpenID Connect Core 1.0 section 2: `auth_time`, `amr` values of RFC 8176), with the request's
 * `nonce` and the SSO session it came from (migration 0015).
 */
export interface AuthenticationContext {
  /** ms */
  authTime: number;
  amr: string[];
  nonce: string | null;
  ssoSessionId: string | null;
  /** Decides the SSO session in the code's transaction instead of `ssoSessionId` (SessionStart). */
  session?: SessionStart | undefined;
}

/**
 * Issues the single-use authorization code for a member who has just proved who they are (login or
 * the end of a sign-up): bound to client, redirect URI and PKCE challenge, valid 60 s, logged as a
 * login, and answered as the redirect location `redirect_uri?code&state&iss` (RFC 6749 section
 * 4.1.2, RFC 9207), to a portal app with client_id and esid too (portal-return.ts, decision 0020).
 * The one place codes are made, so both authorize endpoints behave alike.
 * Undefined, and no code, when the member is no longer active, the password checked is no longer
 * theirs, or the passkey that signed in is no longer theirs; the SPA's cardholders-only page, and no code, when the client is one the member may not
 * use (SPEC.md section 6); `access_denied` to the redirect URI when the pushed request was used up meanwhile.
 */
export async function issueCodeRedirect(
  deps: AuthorizeDeps,
  p: {
    client: OAuthClient;
    redirectUri: string;
    codeChallenge: string;
    scope: string;
    userId: string;
    state: string;
    device: string | null;
    /** The network address of the request, for the activity log's login row; absent: not known (a sign-up's end). */
    address?: string | null;
    /** When the member proved presence by password, carried to the session (decision 0012); null: not by this code. */
    provedAt: number | null;
    /** The password hash the login was checked against: the code is issued only while it is still the member's. */
    passwordHash?: string;
    /** The esid of the card a sign-up just registered: the card a portal app returns to (decision 0020). */
    registeredEsid?: string;
    /** The passkey a passkey sign-in's ticket was bound to: the code is issued only while it is still the member's (decision 0024). */
    passkeyId?: string | undefined;
    /** The request's `dpop_jkt` (RFC 9449 section 10): the code is redeemed with a proof of that key only. */
    dpopJkt?: string | undefined;
    /** The pushed request the code answers (RFC 9126): used up with the code, and no code when it already was (decision 0036). */
    pushed?: string | undefined;
  } & AuthenticationContext,
): Promise<string | undefined> {
  const now = deps.clock.now();
  // Run inside the caller's transaction: the member's row is held until the code is in (member-hold-repo.ts).
  const member = await holdMember(deps.db, p.userId);
  if (!member?.active || (p.passwordHash !== undefined && member.passwordHash !== p.passwordHash)) return undefined;
  // Read again under the held row: a deletion in the settings takes the row first (manage-service.ts).
  if (p.passkeyId !== undefined && !(await memberPasskey(deps.db, p.userId, p.passkeyId))) return undefined;
  if (await refusesMember(deps.db, p.userId, p.client.client_id)) return cardholdersOnlyPage(deps.issuer);
  // One code a pushed request (RFC 9126 section 4): of two authorizations at once, one gets it, and
  // the other starts no session either; it answers access_denied to the pushed, registered redirect
  // URI (decision 0036), not the login page: signing in again cannot help it.
  if (p.pushed !== undefined && !(await consumePushedRequest(deps.db, p.pushed, now))) {
    return redirectTo(p.redirectUri, { error: 'access_denied', error_description: 'the authorization request was already used' }, p.state, deps.issuer);
  }
  const ssoSessionId = p.session ? await p.session.save(deps.db, { userId: p.userId, authTime: p.authTime, amr: p.amr, clientId: p.client.client_id }) : p.ssoSessionId;
  if (ssoSessionId === undefined) return undefined;
  const code = randomToken();
  await insertCode(deps.db, {
    code_hash: sha256(code),
    client_id: p.client.client_id,
    redirect_uri: p.redirectUri,
    code_challenge: p.codeChallenge,
    user_id: p.userId,
    scope: p.scope,
    created_at: now,
    expires_at: now + LIMITS.authorizationCodeTtlMs,
    consumed_at: null,
    family_id: null,
    proved_at: p.provedAt,
    auth_time: p.authTime,
    amr: p.amr.join(' '),
    nonce: p.nonce,
    sso_session_id: ssoSessionId,
    dpop_jkt: p.dpopJkt ?? null,
  });
  await logActivity(deps.db, { userId: p.userId, event: 'login', clientId: p.client.client_id, device: p.device, address: p.address, at: now });
  const portal = await portalReturnParams(deps.db, { clientId: p.client.client_id, userId: p.userId, registeredEsid: p.registeredEsid });
  return redirectTo(p.redirectUri, { code, ...portal }, p.state, deps.issuer);
}
