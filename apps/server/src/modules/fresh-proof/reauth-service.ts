import type { Kysely } from 'kysely';
import { OK_RESPONSE, type BaseResponse } from '@sso/contracts/common';
import { PASSKEY_MESSAGES } from '@sso/contracts/messages';
import type { Database } from '../../db/schema.ts';
import { retryable, unauthorizedError } from '../../lib/app-error.ts';
import type { MemberCall } from '../oauth/member-post.ts';
import type { Clock } from '../../lib/clock.ts';
import { logActivity } from '../activity/activity-repo.ts';
import { checkCurrentPassword } from '../account/current-password.ts';
import { markProved } from '../oauth/token-repo.ts';

/**
 * POST /api/auth/reauth (Bearer, JSON {password}; decision 0012): the member proves presence again.
 * The password is checked as password change checks the current one (checkCurrentPassword: on the
 * login throttle, the 10th wrong one locks with 203, each wrong one logged). A right one stamps this
 * session only (its token family) as proved now and logs 'reauth'; the member's other sessions stay
 * as they were.
 */
export async function reauthenticate(
  deps: { db: Kysely<Database>; clock: Clock },
  call: MemberCall<{ password: string }>,
): Promise<BaseResponse> {
  const { user, token, input, device } = call;
  // A member who required a passkey proves presence by a passkey only (decision 0024): the password is not even checked.
  if (Number(user.require_passkey) === 1) throw retryable(PASSKEY_MESSAGES.freshProofPasskeyNeeded);
  await checkCurrentPassword(deps, user, input.password, { device, clientId: token.clientId });
  const now = deps.clock.now();
  await deps.db.transaction().execute(async (trx) => {
    // The session ended while the password was being checked: nothing to make fresh.
    if (!(await markProved(trx, token.familyId, now))) throw unauthorizedError();
    await logActivity(trx, { userId: user.id, event: 'reauth', clientId: token.clientId, device, at: now });
  });
  return OK_RESPONSE;
}
