import type { Kysely } from 'kysely';
import { LIMITS } from '@sso/contracts/constants';
import { PASSKEY_MESSAGES } from '@sso/contracts/messages';
import type { Database } from '../../db/schema.ts';
import { countMemberPasskeys } from '../passkeys/passkey-repo.ts';
import { freshProofError } from '../../lib/app-error.ts';
import type { MemberCall } from '../oauth/member-post.ts';
import type { Clock } from '../../lib/clock.ts';

/**
 * The one guard of a sensitive change (ARCHITECTURE.md "Fresh proof"; decision 0012): the session
 * of the call's token (its token family) must hold a proof of presence, the password at login or at
 * POST /api/auth/reauth, no older than LIMITS.freshProofMaxAgeMs. Otherwise it answers 401 with
 * `WWW-Authenticate: Bearer error="insufficient_user_authentication", max_age=300` (RFC 9470) and
 * result 300, before any work. The proof is the session's: another session of the member, even one
 * proved a second ago, does not count. A member endpoint's handler (oauth/member-post.ts) calls it
 * first:
 *
 *   async (call) => {
 *     await requireFreshProof(deps, call);
 *     return theChange(deps, call);
 *   }
 */
export async function requireFreshProof(deps: { clock: Clock; db: Kysely<Database> }, call: Pick<MemberCall<unknown>, 'token' | 'user'>): Promise<void> {
  // Read off the token's row, fetched for the Bearer check anyway: no query of its own.
  const { provedAt } = call.token;
  const now = deps.clock.now();
  if (provedAt !== null && now - provedAt <= LIMITS.freshProofMaxAgeMs) return;
  // The refusal says how the member can prove it (decision 0024): a passkey when they have one, and
  // only a passkey when they chose so (then no password ever stamps the session: authorize-service.ts).
  const required = Number(call.user.require_passkey) === 1;
  const passkey = required || (await countMemberPasskeys(deps.db, call.user.id)) > 0;
  throw freshProofError(LIMITS.freshProofMaxAgeMs, required ? PASSKEY_MESSAGES.freshProofPasskeyNeeded : undefined, { passkey, passkey_required: required });
}

/** A member endpoint's handler behind the guard: memberPost takes `afterFreshProof(deps, (call) => theChange(deps, call))` as its handler. */
export const afterFreshProof =
  <I, R>(deps: { clock: Clock; db: Kysely<Database> }, handler: (call: MemberCall<I>) => Promise<R>) =>
  async (call: MemberCall<I>): Promise<R> => {
    await requireFreshProof(deps, call);
    return handler(call);
  };
