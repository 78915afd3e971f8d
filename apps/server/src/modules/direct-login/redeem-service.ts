import type { Kysely } from 'kysely';
import type { DirectLoginTokenGrantResponse } from '@sso/contracts/direct-login';
import type { Database } from '../../db/schema.ts';
import { OAuthError } from '../../lib/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import { newId, sha256 } from '../../lib/secrets.ts';
import { logActivity } from '../activity/activity-repo.ts';
import { holdMember } from '../account/member-hold-repo.ts';
import { refusesMember } from '../oauth/cardholders-only.ts';
import { hasCards } from '../cards/card-repo.ts';
import { audienceOf } from '../oauth/audience.ts';
import { grantedScope } from '../oauth/granted-scope.ts';
import { callerSeen } from '../oauth/caller-seen.ts';
import type { OAuthClient } from '../clients/clients.ts';
import { insertFamily } from '../oauth/token-repo.ts';
import { subjectFor } from '../oidc/subject.ts';
import { issuePair } from '../oauth/tokens.ts';
import { redeemToken } from '../verification/one-time-secret.ts';
import { proofHolds } from './hand-off-proof.ts';
import { findLiveDirectLogin } from './grants.ts';
import { securityEvent } from '../../lib/security-events.ts';

export interface RedeemDeps {
  db: Kysely<Database>;
  clock: Clock;
}

/** The form fields of the direct-login grant that decide whether it is one at all. */
export interface PasswordGrantFields {
  onetime_token?: string | undefined;
  /** The RFC 7636 verifier of the challenge the token was issued with (decision 0013). */
  code_verifier?: string | undefined;
  username?: unknown;
  password?: unknown;
}

const invalidGrant = () => new OAuthError('invalid_grant', 'one-time token is invalid, expired, already used or issued to another client');

/**
 * grant_type=password, at /api/auth/token and /api/auth/direct_login/token alike (SPEC.md section 7;
 * decision 0006): it is the direct-login grant and nothing else. The resource owner password
 * credentials grant must not be used (RFC 9700 section 2.4): a request carrying `username` or
 * `password`, or no `onetime_token`, is refused as an unsupported grant, whoever the member is.
 */
export async function passwordGrant(
  deps: RedeemDeps,
  fields: PasswordGrantFields,
  p: { client: OAuthClient; terminalId: string | null; device: string | null; jkt?: string | null },
): Promise<DirectLoginTokenGrantResponse> {
  if (fields.username !== undefined || fields.password !== undefined || !fields.onetime_token) {
    throw new OAuthError('unsupported_grant_type', 'the password grant accepts only a direct-login onetime_token');
  }
  return redeemDirectLogin(deps, { ...p, onetimeToken: fields.onetime_token, codeVerifier: fields.code_verifier });
}

/**
 * Redeems a direct-login one-time token (decision 0006): it is used up by one conditional update
 * first, whatever follows (of parallel redemptions exactly one gets tokens; a token presented by
 * another client is burnt, as a leaked one would be). The token must be for this client and its
 * member still active and allowed the client (SPEC.md section 6, decision 0015); then a token
 * family bound to the client and terminal starts, and the answer carries the member type (`na`
 * with cards, `open` without).
 */
export async function redeemDirectLogin(
  deps: RedeemDeps,
  p: { onetimeToken: string; codeVerifier?: string | undefined; client: OAuthClient; terminalId: string | null; device: string | null; jkt?: string | null | undefined },
): Promise<DirectLoginTokenGrantResponse> {
  const now = deps.clock.now();
  const secretHash = sha256(p.onetimeToken);
  const outcome = await deps.db.transaction().execute(async (trx) => {
    // The member's row first: an ending event at the same moment ends this session or is seen by it (member-hold-repo.ts).
    const asked = await findLiveDirectLogin(trx, secretHash, now);
    const member = asked ? await holdMember(trx, asked.user_id) : undefined;
    // Used up whatever follows; the grant is the one read above (its verification's subject is its id).
    const subject = (await redeemToken(trx, 'direct_login', secretHash, now))?.subject;
    const grant = subject !== undefined && subject === asked?.id ? asked : undefined;
    if (!grant || grant.client_id !== p.client.client_id || !member?.active) return undefined;
    const userId = grant.user_id;
    // A cardholders-only client and a member who no longer holds a card (SPEC.md section 6): refused as any other bad grant.
    if (!proofHolds(grant.code_challenge, p.codeVerifier, p.client) || (await refusesMember(trx, userId, p.client.client_id))) {
      // The token is used up all the same (committed with this row): an interceptor gets one try, and nothing.
      await logActivity(trx, { userId, event: 'direct_login_refused', clientId: p.client.client_id, ...callerSeen(p.client, p.device), at: now });
      securityEvent({ event: 'direct_login.refused', memberId: userId, clientId: p.client.client_id });
      return undefined;
    }
    const familyId = newId();
    // No scope is asked for here: the client's own, as an authorize request without one (decision 0010).
    const scope = grantedScope(p.client, '');
    if (scope === undefined) return undefined;
    await insertFamily(trx, {
      id: familyId,
      user_id: userId,
      client_id: p.client.client_id,
      terminal_id: p.terminalId,
      scope,
      audience: audienceOf(p.client),
      created_at: now,
      revoked_at: null,
      // A one-time token proves the app's session, not the member's presence (decision 0012).
      proved_at: null,
      // Nor does it authenticate the member: no `amr`, but the authentication of the session that
      // asked for the token, when it knew it (migration 0019): never the time of this redemption.
      auth_time: grant.auth_time,
      amr: null,
      sso_session_id: null,
      subject: subjectFor(p.client, userId),
    });
    // Bound to the DPoP key of the token request's proof, when it sent one (RFC 9449 section 5).
    const tokens = await issuePair(trx, familyId, null, scope, now, p.jkt ?? null);
    const memberType = (await hasCards(trx, userId)) ? ('na' as const) : ('open' as const);
    await logActivity(trx, { userId, event: 'direct_login', clientId: p.client.client_id, ...callerSeen(p.client, p.device), at: now });
    return { ...tokens, member_type: memberType };
  });
  if (!outcome) throw invalidGrant();
  return outcome;
}
