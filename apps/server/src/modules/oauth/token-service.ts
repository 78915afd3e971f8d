import type { Kysely } from 'kysely';
import { LIMITS, WEB_CLIENT_ID } from '@sso/contracts/constants';
import type { TokenResponse } from '@sso/contracts/auth';
import type { Database } from '../../db/schema.ts';
import type { Clock } from '../../lib/clock.ts';
import { newId, sha256 } from '../../lib/secrets.ts';
import { OAuthError } from '../../lib/app-error.ts';
import { logActivity } from '../activity/activity-repo.ts';
import { securityEvent } from '../../lib/security-events.ts';
import { endCardholdersOnlySessions, refusesMember } from '../oauth/cardholders-only.ts';
import { holdMember } from '../account/member-hold-repo.ts';
import { audienceOf, mayIntrospect } from './audience.ts';
import type { ClientRegistry, OAuthClient } from '../clients/clients.ts';
import { isClientEnabled } from '../clients/client-repo.ts';
import { consumeCode, findCode } from './code-repo.ts';
import { callerSeen } from './caller-seen.ts';
import { verifyPkce } from './pkce.ts';
import type { DpopSettings } from './dpop.ts';
import { findGrant, insertFamily, lockGrant, revokeFamily, supersedeChildren, type GrantWithFamily } from './token-repo.ts';
import { findToken, findTokenOfClient, issuePair, rotatePair, type TokenKind } from './tokens.ts';
import { amrList, mintIdToken, type OidcDeps } from '../oidc/id-token.ts';
import { subjectFor } from '../oidc/subject.ts';
import { slideSsoSessionOnRefresh } from '../sso/sso-session-repo.ts';

/** What reads and writes tokens: the database, the time, the client registry. */
export interface TokenStoreDeps {
  db: Kysely<Database>;
  clock: Clock;
  /**
   * This node's copy of the client registry: a token whose client it does not know, or knows as
   * disabled, is refused unless the database says the client is enabled now (decision 0031).
   */
  clients: Pick<ClientRegistry, 'get'>;
}

/** What the guard of every endpoint that takes an access token needs (bearer.ts): the tokens, and what DPoP proofs are checked against (dpop.ts). */
export interface TokenDeps extends TokenStoreDeps {
  dpop: DpopSettings;
}

/** The grants that answer an ID token besides the pair (OpenID Connect Core 1.0 sections 3.1.3.3 and 12.2). */
export type GrantDeps = TokenStoreDeps & OidcDeps;

const hasOpenid = (scope: string) => scope.split(' ').includes('openid');

const invalidGrant = (why: string) => new OAuthError('invalid_grant', why);

/**
 * authorization_code grant (RFC 6749 section 4.1.3, RFC 7636 section 4.6). The code is consumed
 * first, whatever follows: a wrong verifier or redirect URI burns it. A second use of a consumed
 * code revokes every token the first use issued (RFC 6749 section 4.1.2).
 */
export async function exchangeCode(
  deps: GrantDeps,
  p: { code: string; client: OAuthClient; redirectUri: string | undefined; verifier: string | undefined; terminalId: string | null; jkt?: string | null },
): Promise<TokenResponse> {
  const jkt = p.jkt ?? null;
  const now = deps.clock.now();
  const codeHash = sha256(p.code);
  const familyId = newId();
  const outcome = await deps.db.transaction().execute(async (trx) => {
    // The member's row first: an ending event at the same moment ends this session or is seen by it (member-hold-repo.ts).
    const asked = await findCode(trx, codeHash);
    if (asked && !(await holdMember(trx, asked.user_id))?.active) return { kind: 'error' as const, error: 'the member is no longer active' };
    const code = await consumeCode(trx, codeHash, familyId, now);
    if (!code) return { kind: 'replay' as const, code: await findCode(trx, codeHash) };
    if (code.expires_at <= now) return { kind: 'error' as const, error: 'authorization code expired' };
    if (code.client_id !== p.client.client_id) return { kind: 'error' as const, error: 'authorization code was issued to another client' };
    if (code.redirect_uri !== p.redirectUri) return { kind: 'error' as const, error: 'redirect_uri does not match the authorization request' };
    if (!verifyPkce(p.verifier, code.code_challenge)) return { kind: 'error' as const, error: 'code_verifier does not match the code_challenge' };
    // A code the authorization request bound to a DPoP key is redeemed with a proof of that key only (RFC 9449 section 10).
    if (code.dpop_jkt !== null && code.dpop_jkt !== jkt) return { kind: 'error' as const, error: 'the authorization code is bound to another DPoP key' };
    // The member's identifier for this client (modules/oidc/subject.ts), stored with the session and carried by its ID tokens.
    const subject = subjectFor(p.client, code.user_id);
    await insertFamily(trx, {
      id: familyId,
      user_id: code.user_id,
      client_id: code.client_id,
      terminal_id: p.terminalId,
      scope: code.scope,
      audience: audienceOf(p.client),
      created_at: now,
      revoked_at: null,
      proved_at: code.proved_at,
      auth_time: code.auth_time,
      amr: code.amr,
      sso_session_id: code.sso_session_id,
      subject,
    });
    return { kind: 'tokens' as const, code, subject, tokens: await issuePair(trx, familyId, null, code.scope, now, jkt) };
  });
  if (outcome.kind === 'tokens') {
    const { code, subject, tokens } = outcome;
    if (!hasOpenid(code.scope)) return tokens;
    // Signed once the session is committed, never inside the transaction.
    const idToken = await mintIdToken(deps, {
      clientId: code.client_id,
      alg: p.client.id_token_signed_response_alg,
      subject,
      authTime: code.auth_time ?? code.created_at,
      amr: amrList(code.amr),
      sid: code.sso_session_id,
      nonce: code.nonce,
      accessToken: tokens.access_token,
      now,
    });
    return { ...tokens, id_token: idToken };
  }
  if (outcome.kind === 'replay') {
    const code = outcome.code;
    if (code?.family_id) {
      await revokeFamily(deps.db, code.family_id, now);
      await logActivity(deps.db, { userId: code.user_id, event: 'code_reuse', clientId: code.client_id, ...callerSeen(p.client), at: now });
    }
    // A code this service issued, presented again (an unknown code is no replay).
    if (code) securityEvent({ event: 'code.replay', memberId: code.user_id, clientId: code.client_id });
    throw invalidGrant('authorization code is invalid or already used');
  }
  throw invalidGrant(outcome.error);
}

/**
 * refresh_token grant with rotation and reuse detection (RFC 9700 section 4.14.2), for a client the
 * route has authenticated: whether it is enabled is read here, with the token. Every refresh
 * answers a new pair. A rotated token presented again revokes the whole family, except a retry by
 * the same client and terminal within LIMITS.refreshRetryGraceMs (a lost response, a double tap):
 * that retry is answered with a fresh pair that supersedes the unused one issued before it
 * (docs/decisions/0002-refresh-retry-grace.md). Concurrency is decided by conditional updates.
 */
export async function refreshTokens(
  deps: GrantDeps,
  p: { refreshToken: string; client: OAuthClient; terminalId: string | null; jkt?: string | null },
): Promise<TokenResponse> {
  const now = deps.clock.now();
  const jkt = p.jkt ?? null;
  // The client's enabled flag is read with the token's row (decision 0031), for the token endpoint
  // does not read it apart for this grant (routes.ts): refused before anything else is looked at.
  const { found, clientEnabled } = await findTokenOfClient(deps.db, p.refreshToken, p.client.client_id);
  if (!clientEnabled) throw new OAuthError('invalid_client', 'client authentication failed', 401);
  const grant = found?.kind === 'refresh' ? found.grant : undefined;
  if (!grant || grant.client_id !== p.client.client_id) throw invalidGrant('refresh token is invalid');
  if (grant.terminal_id !== p.terminalId) throw invalidGrant('refresh token is bound to another terminal');
  // A public client's refresh token is bound to its DPoP key (RFC 9449 section 5): refreshed with a proof
  // of that key only. A confidential client's is bound by its authentication: its new pair takes the key
  // of this request's proof, if any.
  if (p.client.type === 'public' && grant.dpop_jkt !== null && grant.dpop_jkt !== jkt) throw invalidGrant('refresh token is bound to another DPoP key');
  if (grant.family_revoked_at !== null || grant.refresh_expires_at <= now) throw invalidGrant('refresh token is revoked or expired');
  // A cardholders-only service ends when the member holds no card any more, however the cards went
  // (SPEC.md section 4; decision 0015). Asked of a cardholders-only client only: no query for the others.
  if (await refusesMember(deps.db, grant.user_id, grant.client_id)) {
    await endCardholdersOnlySessions(deps.db, { userId: grant.user_id, clientIds: [grant.client_id], ...callerSeen(p.client), at: now });
    throw invalidGrant('the member holds no card; the session of this cardholders-only service has ended');
  }

  // The rotation and the new pair first, alone (token-repo.ts `rotateGrant`): one statement on
  // PostgreSQL. Only a grant that was no longer live takes the retry's transaction.
  const outcome = (await rotatePair(deps.db, grant, grant.scope, now, jkt)) ?? (await retryWithinGrace(deps.db, grant, now, jkt));
  if (outcome) {
    // The SPA's refresh is the member's access to the ID (SPEC.md section 9: automatic login lasts 90
    // days from the last access): the browser's session its tokens came from slides on. A partner's
    // refresh, made by its server with or without the member, does not (decision 0026). A pair issued
    // within the minute came from a use of the session (a login, an authorize, a refresh that slid it):
    // no statement then, so that a client refreshing again and again costs the hot path nothing more.
    const session = grant.client_id === WEB_CLIENT_ID && now - grant.created_at >= LIMITS.ssoSessionTouchMs ? grant.sso_session_id : null;
    if (session !== null) await slideSsoSessionOnRefresh(deps.db, { id: session, now });
    if (!hasOpenid(grant.scope)) return outcome;
    // A new ID token each time, of the session's own sign-in, without a nonce (OpenID Connect Core 1.0
    // section 12.2), made from the row the refresh read: no query more.
    const idToken = await mintIdToken(deps, {
      clientId: grant.client_id,
      alg: p.client.id_token_signed_response_alg,
      subject: grant.subject ?? subjectFor(p.client, grant.user_id),
      authTime: grant.auth_time,
      amr: amrList(grant.amr),
      sid: grant.sso_session_id,
      nonce: null,
      accessToken: outcome.access_token,
      now,
    });
    return { ...outcome, id_token: idToken };
  }
  await revokeFamily(deps.db, grant.family_id, now);
  await logActivity(deps.db, { userId: grant.user_id, event: 'token_replay', clientId: grant.client_id, ...callerSeen(p.client), at: now });
  securityEvent({ event: 'token.refresh_reuse', memberId: grant.user_id, clientId: grant.client_id });
  throw invalidGrant('refresh token was already used; the session has been revoked');
}

/**
 * A refresh token presented again after its rotation: a fresh pair that supersedes the unused one
 * issued before, if this is a retry within the grace (decision 0002); null for a replay. The grant's
 * row is locked first (PostgreSQL), so that retries of one refresh are serialised.
 */
async function retryWithinGrace(db: Kysely<Database>, grant: GrantWithFamily, now: number, jkt: string | null): Promise<TokenResponse | null> {
  return db.transaction().execute(async (trx) => {
    await lockGrant(trx, grant);
    const current = await findGrant(trx, grant);
    const inGrace =
      current?.rotated_at != null && current.revoked_at === null && current.family_revoked_at === null &&
      now - current.rotated_at <= LIMITS.refreshRetryGraceMs;
    if (inGrace && (await supersedeChildren(trx, grant, now)) > 0) {
      return issuePair(trx, grant.family_id, grant.id, grant.scope, now, jkt);
    }
    return null;
  });
}

/** RFC 7009: revoking either token of a session revokes the whole family. Unknown tokens are not an error. */
export async function revokeToken(
  deps: TokenStoreDeps,
  p: { token: string; client: OAuthClient; device: string | null },
) {
  const found = await findToken(deps.db, p.token);
  if (!found || found.grant.client_id !== p.client.client_id) return;
  const now = deps.clock.now();
  if (found.grant.family_revoked_at === null) {
    await revokeFamily(deps.db, found.grant.family_id, now);
    await logActivity(deps.db, { userId: found.grant.user_id, event: 'logout', clientId: found.grant.client_id, ...callerSeen(p.client, p.device), at: now });
  }
}

/**
 * Whether a token's client may still act: enabled in this node's copy of the registry, or, where the
 * copy says otherwise (a client registered or enabled again since this node's last poll, or disabled),
 * in the database now: one read by its key, for those tokens only (decision 0031).
 */
const clientEnabled = async (deps: TokenStoreDeps, clientId: string) => deps.clients.get(clientId) !== undefined || (await isClientEnabled(deps.db, clientId));

const isLive = (g: GrantWithFamily, kind: TokenKind, now: number) =>
  g.family_revoked_at === null &&
  g.revoked_at === null &&
  (kind === 'access' ? g.access_expires_at > now : g.rotated_at === null && g.refresh_expires_at > now);

/**
 * RFC 7662 introspection by a confidential client: a token of its own or one whose audience names it
 * (docs/decisions/0010-scopes-and-audience.md). Any other token answers as an inactive one does
 * (RFC 7662 section 2.2), so that a partner learns nothing about tokens that are not for it. `sub` is
 * the member's subject identifier for the caller (modules/oidc/subject.ts), the one its own ID tokens
 * and userinfo carry, whichever client the token was issued to: never the member id.
 */
export async function introspect(deps: TokenStoreDeps, p: { token: string; caller: OAuthClient }) {
  const found = await findToken(deps.db, p.token);
  const now = deps.clock.now();
  if (!found || !isLive(found.grant, found.kind, now) || !mayIntrospect(p.caller.client_id, found.grant) || !(await clientEnabled(deps, found.grant.client_id))) return { active: false as const };
  const g = found.grant;
  return {
    active: true as const,
    client_id: g.client_id,
    sub: subjectFor(p.caller, g.user_id),
    scope: g.scope,
    aud: g.audience.split(' '),
    // A DPoP-bound access token says so, with the thumbprint of its key (RFC 9449 section 6.2).
    ...(found.kind === 'access' && g.dpop_jkt !== null ? { token_type: 'DPoP' as const, cnf: { jkt: g.dpop_jkt } } : { token_type: found.kind === 'access' ? ('Bearer' as const) : ('refresh_token' as const) }),
    exp: Math.floor((found.kind === 'access' ? g.access_expires_at : g.refresh_expires_at) / 1000),
    iat: Math.floor(g.created_at / 1000),
    ...(g.terminal_id ? { terminal_id: g.terminal_id } : {}),
  };
}

/** Resolves a Bearer access token to its member, or undefined (the caller answers 401): also for a token of a disabled client. */
export async function authenticateAccessToken(deps: TokenStoreDeps, token: string) {
  const found = await findToken(deps.db, token);
  const g = found?.kind === 'access' ? found.grant : undefined;
  if (!g || !isLive(g, 'access', deps.clock.now()) || !(await clientEnabled(deps, g.client_id))) return undefined;
  return {
    userId: g.user_id,
    clientId: g.client_id,
    familyId: g.family_id,
    terminalId: g.terminal_id,
    scope: g.scope,
    /** The scope's list and the audience, read off the same row (decision 0010): the guard's check is a lookup, not a query. */
    scopes: g.scope.split(' '),
    audience: g.audience.split(' '),
    /** When the member last proved presence on this session (decision 0012), off the same row; null: not since it began. */
    provedAt: g.proved_at,
    /** The member's subject identifier for the token's client (modules/oidc/subject.ts), off the same row; null: a session from before migration 0018. */
    subject: g.subject,
    /** The thumbprint of the DPoP key the token is bound to (RFC 9449 section 6), or null: a Bearer token. */
    jkt: g.dpop_jkt,
  };
}

/** The member, client, session (token family), scope and audience a live access token stands for. */
export type BearerToken = NonNullable<Awaited<ReturnType<typeof authenticateAccessToken>>>;
