import type { Kysely } from 'kysely';
import { OK_RESPONSE, type BaseResponse } from '@sso/contracts/common';
import type { Database } from '../../db/schema.ts';
import { unauthorizedError } from '../../lib/app-error.ts';
import { deletePointAccounts } from '../../ports/point-ledger-repo.ts';
import { logActivity } from '../activity/activity-repo.ts';
import { clearLoginFailures } from '../verification/account-lock.ts';
import { markWithdrawn } from '../account/member-repo.ts';
import type { UserRow } from '../account/user-repo.ts';
import type { AccountChangeDeps, ChangeContext } from './email-change-service.ts';
import { deleteMemberCards } from '../cards/card-repo.ts';
import { endMemberSessions } from '../sessions/end-sessions.ts';
import { deleteMemberPasskeys } from '../passkeys/passkey-repo.ts';
import { forgetMemberDevices } from '../account/device-repo.ts';

/**
 * POST /api/auth/cancel (SPEC.md sections 2, 4 and 7; docs/withdrawal.md). One transaction:
 * the member is marked withdrawn (of parallel withdrawals one goes on) with the e-mail and phone
 * freed and the password unusable; the card links and point accounts go (the open member's points
 * are lost, as the SPA warned); every session and pending e-mail change ends; 'withdrawn' is logged.
 * The activity log and term acceptances stay for audit.
 */
export async function withdraw(deps: AccountChangeDeps, user: UserRow, context: ChangeContext): Promise<BaseResponse> {
  const now = deps.clock.now();
  await deps.db.transaction().execute(async (trx) => {
    if (!(await endLogin(trx, user, now))) throw unauthorizedError();
    await logActivity(trx, { userId: user.id, event: 'withdrawn', device: context.device, at: now });
  });
  return OK_RESPONSE;
}

/**
 * What a withdrawal does to the member's rows, to run inside the caller's transaction: also the end
 * of an open member's login once their points were linked to a card member (decision
 * 0006). False, and nothing done, when the member was not active.
 */
export async function endLogin(trx: Kysely<Database>, user: Pick<UserRow, 'id' | 'email' | 'tel'>, now: number): Promise<boolean> {
  if (!(await markWithdrawn(trx, user.id, now))) return false;
  // The links between the ID and its cards end (SPEC.md section 4) and its point accounts go.
  await deleteMemberCards(trx, user.id);
  await deletePointAccounts(trx, user.id);
  await endMemberSessions(trx, user.id, now);
  // Its passkeys sign in no one any more, and its browsers are forgotten (decision 0024).
  await deleteMemberPasskeys(trx, user.id);
  await forgetMemberDevices(trx, user.id);
  // The freed login ids start a new member with a clean slate of login failures.
  await clearLoginFailures(trx, user);
  return true;
}
