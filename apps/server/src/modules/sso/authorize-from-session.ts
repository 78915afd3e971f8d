import type { AuthorizeQuery } from '@sso/contracts/auth';
import { outstandingTerms } from '../account/credentials-service.ts';
import { refusesMember } from '../oauth/cardholders-only.ts';
import { assuresClient } from '../oauth/redirect-assurance.ts';
import { findActiveUserById } from '../account/user-repo.ts';
import { meetsAcrValues } from '../oidc/acr-request.ts';
import { amrList } from '../oidc/id-token.ts';
import {
  acceptClientTerms,
  cardholdersOnlyPage,
  checkAuthorizeQuery,
  errorRedirect,
  issueCodeRedirect,
  loginPage,
  resolveClient,
  stateOf,
  type AuthorizeDeps,
  type AuthorizeQueryCheck,
  type AuthorizeTarget,
  type SessionStart,
} from '../oauth/authorize-service.ts';
import type { Browser } from './sso-cookie.ts';
import { liveSsoSession, touchSession } from './sso-sessions.ts';
import type { SsoSessionRow } from './sso-session-repo.ts';
import { findSsoSession } from './sso-session-repo.ts';

/**
 * Authorization from the browser's SSO session (docs/decisions/0026-sso-session.md; OpenID Connect
 * Core 1.0 section 3.1.2.1): any client's request completes from a live session without the member,
 * unless it asks for a login (`prompt=login`, `select_account`), its `max_age` is past the session's
 * authentication, the member has the client's terms to accept first (SPEC.md section 4, "Login"), or
 * its redirect URI cannot assure who receives the code (a portal app's custom URL scheme): then the
 * member first sees which app asks, under which account, and confirms (decision 0027).
 */

type Target = Pick<AuthorizeTarget, 'client' | 'redirectUri'>;
type Checked = Extract<AuthorizeQueryCheck, { ok: true }>;

/**
 * What the session can do for a request: complete it (after `terms`, when any are outstanding, and
 * after the member's own confirmation when `confirm`: decision 0027), refuse it (`refused`: a
 * cardholders-only service its member may not use, SPEC.md section 6, decided before any terms are
 * shown or recorded, as the password login does: decision 0015), or nothing: the member logs in.
 */
export type SessionVerdict = { kind: 'session'; session: SsoSessionRow; terms: string[]; confirm: boolean } | { kind: 'refused' } | { kind: 'login' };

/** The query string of a request's URL as it came, which the SPA's login page gets unchanged. */
export const queryStringOf = (url: string) => {
  const at = url.indexOf('?');
  return at < 0 ? '' : url.slice(at + 1);
};

/**
 * Whether a live session may answer without the member: not for a login or an account choice asked
 * for, nor past `max_age` seconds, nor when its sign-in is weaker than the request's `acr_values`
 * (a password session for a request of phishing-resistant authentication: oidc/acr-request.ts).
 */
function answers(session: SsoSessionRow, query: AuthorizeQuery, now: number): boolean {
  if (query.prompt === 'login' || query.prompt === 'select_account') return false;
  if (!meetsAcrValues(amrList(session.amr), query.acr_values)) return false;
  return query.max_age === undefined || now - session.auth_time <= query.max_age * 1000;
}

/** The browser's session's verdict on a checked request to `target`. */
export async function sessionVerdict(deps: AuthorizeDeps, target: Target, query: AuthorizeQuery, browser: Browser): Promise<SessionVerdict> {
  const session = await liveSsoSession(deps, browser);
  if (!session || !answers(session, query, deps.clock.now())) return { kind: 'login' };
  if (await refusesMember(deps.db, session.user_id, target.client.client_id)) return { kind: 'refused' };
  const terms = await outstandingTerms(deps.db, session.user_id, target.client);
  return { kind: 'session', session, terms, confirm: !assuresClient(deps.issuer, target.redirectUri) };
}

/**
 * A `prompt=none` request the session cannot complete without showing a screen: its OpenID Connect
 * error (`login_required`; `consent_required` for outstanding terms; `interaction_required` for a
 * client whose redirect URI cannot be tied to it, decision 0027); undefined when it can.
 */
export function silentError(verdict: SessionVerdict): { error: string; description: string } | undefined {
  if (verdict.kind === 'login') return { error: 'login_required', description: 'the member must log in' };
  if (verdict.kind === 'refused') return { error: 'access_denied', description: 'the service is for cardholders only' };
  if (verdict.confirm) return { error: 'interaction_required', description: 'the member must confirm the app' };
  if (verdict.terms.length > 0) return { error: 'consent_required', description: 'the member must accept the terms of use' };
  return undefined;
}

/**
 * The code from the session, in one transaction with the member's row held (issueCodeRedirect): the
 * session is read again there, so that an ending event that got in first is seen and no code is
 * issued from the ended session; its use is recorded (touchSession). The code carries the session's
 * authentication (`auth_time`, `amr`), the request's `nonce`, and no proof of presence (decision 0012:
 * nobody typed anything).
 */
async function codeFromSession(deps: AuthorizeDeps, target: AuthorizeTarget, q: Checked, session: SsoSessionRow, browser: Browser, onUse: () => void) {
  const stillLive: SessionStart = {
    save: async (db) => {
      const now = deps.clock.now();
      const row = await findSsoSession(db, session.id);
      if (!row || row.ended_at !== null || row.expires_at <= now) return undefined;
      await touchSession({ db, clock: deps.clock }, row, target.client.client_id, browser.address);
      onUse();
      return row.id;
    },
  };
  const issue = {
    client: target.client,
    redirectUri: target.redirectUri,
    pushed: target.pushed,
    codeChallenge: q.query.code_challenge,
    scope: q.scope,
    userId: session.user_id,
    state: stateOf(target.query),
    device: browser.device,
    address: browser.address,
    provedAt: null,
    authTime: session.auth_time,
    amr: session.amr.split(' ').filter(Boolean),
    nonce: q.query.nonce ?? null,
    dpopJkt: q.query.dpop_jkt,
    ssoSessionId: null,
    session: stillLive,
  };
  return deps.db.transaction().execute((trx) => issueCodeRedirect({ ...deps, db: trx }, issue));
}

/**
 * GET /api/auth/authorize, the authorization endpoint (RFC 6749 section 3.1; OpenID Connect Core 1.0
 * section 3.1.2): the client and redirect URI are checked by the caller (resolveClient), the rest as
 * the form's post checks it (checkAuthorizeQuery). With a session that may answer: the code, or
 * the SPA's login page, which shows the outstanding terms, or the app's confirmation (decision 0027),
 * first. Without one: the SPA's login page (SPEC.md section 2), or for `prompt=none` the error
 * (`login_required`, `consent_required`, `interaction_required`, and `access_denied` for a service
 * the member may not use, whose page would be a screen). A member the session's service refuses
 * (decision 0015) goes to the SPA's page that says so, before any terms, as after the password.
 * `onUse` is called when a code came from the session (the route gives the cookie again).
 */
export async function authorizeFromSession(
  deps: AuthorizeDeps,
  target: AuthorizeTarget,
  rawQueryString: string,
  browser: Browser,
  onUse: () => void = () => {},
): Promise<string> {
  const rawQuery = target.query;
  const fail = (error: string, description: string) => errorRedirect(deps.issuer, target.redirectUri, rawQuery, error, description);
  const q = checkAuthorizeQuery(target.client, rawQuery);
  if (!q.ok) return fail(q.error, q.description);
  const silent = q.query.prompt === 'none';
  const verdict = await sessionVerdict(deps, target, q.query, browser);
  const problem = silentError(verdict);
  if (silent && problem) return fail(problem.error, problem.description);
  if (verdict.kind === 'refused') return cardholdersOnlyPage(deps.issuer);
  if (problem || verdict.kind === 'login') return loginPage(deps.issuer, rawQueryString);
  const location = await codeFromSession(deps, target, q, verdict.session, browser, onUse);
  if (location !== undefined) return location;
  return silent ? fail('login_required', 'the member must log in') : loginPage(deps.issuer, rawQueryString);
}

/**
 * POST /api/auth/authorize with `continue_session` (decision 0026): the SPA's hidden form after its
 * check said the session completes the request, with the terms the member agreed to on the
 * additional-terms screen, and `confirmed` once the member pressed the app's confirmation (decision
 * 0027). A session that can no longer answer sends the member to the login page (for `prompt=none`,
 * `login_required`), and so does a request needing the confirmation that came without it; terms
 * still outstanding are refused as the login's are. `onUse` as authorizeFromSession's.
 */
export async function authorizeSessionForm(
  deps: AuthorizeDeps,
  target: AuthorizeTarget,
  rawQueryString: string,
  form: { terms?: string | string[] | undefined; confirmed?: '1' | undefined },
  browser: Browser,
  onUse: () => void = () => {},
): Promise<string> {
  const rawQuery = target.query;
  const fail = (error: string, description: string) => errorRedirect(deps.issuer, target.redirectUri, rawQuery, error, description);
  const q = checkAuthorizeQuery(target.client, rawQuery);
  if (!q.ok) return fail(q.error, q.description);
  const verdict = await sessionVerdict(deps, target, q.query, browser);
  const silent = q.query.prompt === 'none';
  if (verdict.kind === 'login') return silent ? fail('login_required', 'the member must log in') : loginPage(deps.issuer, rawQueryString);
  // Before the terms: a member refused the service is not asked to accept them, nor are they recorded (decision 0015).
  if (verdict.kind === 'refused') return silent ? fail('access_denied', 'the service is for cardholders only') : cardholdersOnlyPage(deps.issuer);
  // prompt=none shows no screen, so nothing was confirmed on one, whatever the form says.
  if (verdict.confirm && (silent || form.confirmed !== '1')) return silent ? fail('interaction_required', 'the member must confirm the app') : loginPage(deps.issuer, rawQueryString);
  if (!(await acceptClientTerms(deps, verdict.session.user_id, target.client, form.terms, deps.clock.now()))) return fail('access_denied', 'terms of use not accepted');
  const location = await codeFromSession(deps, target, q, verdict.session, browser, onUse);
  return location ?? loginPage(deps.issuer, rawQueryString);
}

/** What the app's confirmation screen shows (decision 0027): the app's name, the session's account, and where declining goes. */
export interface SessionConfirm {
  client_name: string;
  account: string;
  /** The RFC 6749 section 4.1.2.1 `access_denied` redirect to the app, for the member who declines. */
  deny_to: string;
}

/**
 * What the SPA's check before the login form (/api/auth/authorize/check, decision 0019) adds for a
 * request the authorize endpoint takes: `session` when the browser's session completes it, with the
 * terms to accept first and, for an app whose redirect URI cannot be tied to it, `confirm` (decision
 * 0027); for `prompt=none`, the error redirect when it cannot (the SPA follows it); nothing when the
 * form shows.
 */
export async function sessionCheck(
  deps: AuthorizeDeps,
  rawQuery: Record<string, unknown>,
  browser: Browser,
): Promise<{ session: true; terms: string[]; confirm?: SessionConfirm } | { redirect_to: string } | Record<string, never>> {
  const target = resolveClient(deps.clients, rawQuery);
  const q = target && checkAuthorizeQuery(target.client, rawQuery);
  if (!target || !q?.ok) return {};
  const verdict = await sessionVerdict(deps, target, q.query, browser);
  const problem = silentError(verdict);
  const redirect = (error: string, description: string) => errorRedirect(deps.issuer, target.redirectUri, rawQuery, error, description);
  if (q.query.prompt === 'none' && problem) return { redirect_to: redirect(problem.error, problem.description) };
  // The SPA follows it as a document navigation: the page that says why, never the terms screen (decision 0015).
  if (verdict.kind === 'refused') return { redirect_to: cardholdersOnlyPage(deps.issuer) };
  if (verdict.kind !== 'session') return {};
  if (!verdict.confirm) return { session: true, terms: verdict.terms };
  const member = await findActiveUserById(deps.db, verdict.session.user_id);
  if (!member) return {};
  const confirm = { client_name: target.client.name, account: member.email, deny_to: redirect('access_denied', 'the member declined') };
  return { session: true, terms: verdict.terms, confirm };
}
