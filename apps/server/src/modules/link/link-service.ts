import type { z } from 'zod';
import { OK_RESPONSE } from '@sso/contracts/common';
import { LIMITS } from '@sso/contracts/constants';
import { LINK_MESSAGES } from '@sso/contracts/screen-messages';
import type { linkOpenRequestSchema, linkOpenResponseSchema } from '@sso/contracts/points';
import type { AppError } from '../../lib/app-error.ts';
import { deniedWith, lockedWith, retryable } from '../../lib/app-error.ts';
import { constantTimeEqual } from '../../lib/secrets.ts';
import type { PointLedger } from '../../ports/point-ledger.ts';
import { logActivity } from '../activity/activity-repo.ts';
import { endLogin } from '../account-change/withdraw-service.ts';
import { checkCredentials, type CredentialDeps, type LoginOrigin } from '../account/credentials-service.ts';
import { clearAttempts, countAttempt, isLocked } from '../verification/login-throttle-repo.ts';
import { findActiveUserById, type UserRow } from '../account/user-repo.ts';
import { securityEvent } from '../../lib/security-events.ts';

export type LinkDeps = CredentialDeps & { pointLedger: PointLedger };

/** What a logged event records besides the event, and where the request came from (a login's origin). */
export type LinkContext = LoginOrigin;

type LinkInput = z.infer<ReturnType<typeof linkOpenRequestSchema>>;

const notMatched = () => retryable(LINK_MESSAGES.notMatched);
const linkLocked = () => lockedWith(LINK_MESSAGES.locked);
/** Failed matches of one card member. */
const lockKey = (userId: string) => `open-link:${userId}`;
/**
 * One link at a time per open member: a lease on the login throttle's atomic counter, so that two
 * parallel links of the same open account cannot both call the ledger. It lapses by itself if the
 * process dies in between.
 */
const claimKey = (openMemberId: string) => `open-link-claim:${openMemberId}`;
const CLAIM_MS = 60_000;
/** Compared when the e-mail and password name no member, so that a miss costs what a mismatch costs. */
const NOBODY = { member_type: '', last_name_kana: '', first_name_kana: '', birthday: '', profile_tel: '' };

/**
 * POST /api/link/open (decisions 0006 and 0014; SPEC.md sections 1, 3 and 6): a card member takes
 * over an open account's points. Open members answer 300; a member who already has an open account
 * 902. The open account's password proves that the person controls it (decision 0014): checked as a
 * login checks it (account/credentials-service.ts), so that a guess here counts on the open
 * account's login throttle and is logged in its activity log as a failed login. The active open
 * member with the e-mail and that password must also have the same kana names, birthday and phone;
 * a failure never says what differed, nor whether the e-mail exists. 5 failed matches by one member
 * lock the link for 30 minutes (203, logged), and each failure is logged for the card member. A
 * match moves the open account's points (the point ledger, outside any transaction of ours), then
 * one transaction ends the open member's login as a withdrawal does and logs 'open_linked' for both
 * members (and 'withdrawn' for the open one).
 */
export async function linkOpenAccount(
  deps: LinkDeps,
  user: UserRow,
  input: LinkInput,
  context: LinkContext,
): Promise<z.infer<typeof linkOpenResponseSchema>> {
  if (user.member_type !== 'card') throw deniedWith(LINK_MESSAGES.cardMembersOnly);
  if ((await deps.pointLedger.balances(user.id)).open !== null) throw retryable(LINK_MESSAGES.alreadyLinked);
  const open = await matchOpenMember(deps, user, input, context);
  const now = deps.clock.now();
  const { attempt } = await countAttempt(deps.db, claimKey(open.id), now, 1, CLAIM_MS);
  // Another link of this open account is under way: to this member it is no longer there to match.
  if (attempt > 1) throw await failed(deps, user, context, notMatched());
  try {
    // Read again under the claim: a link that claimed and finished while this one checked the
    // password has withdrawn the open member.
    if (!(await findActiveUserById(deps.db, open.id))) throw await failed(deps, user, context, notMatched());
    await deps.pointLedger.mergeOpenAccount({ fromUserId: open.id, toUserId: user.id, at: now });
    await deps.db.transaction().execute(async (trx) => {
      // The open account's points were merged away above: what the withdrawal drops is only the rest.
      await endLogin(trx, open, now);
      for (const userId of [user.id, open.id]) await logActivity(trx, { userId, event: 'open_linked', device: context.device, at: now });
      // The open member's log is then kept as a withdrawn member's, and purged with it (docs/withdrawal.md).
      await logActivity(trx, { userId: open.id, event: 'withdrawn', device: context.device, at: now });
    });
  } finally {
    await clearAttempts(deps.db, claimKey(open.id));
  }
  const balances = await deps.pointLedger.balances(user.id);
  return { ...OK_RESPONSE, aqf_point_open: balances.open ?? 0 };
}

/** Logs a failed link for the card member, the same for every failure, and gives back the answer. */
async function failed(deps: LinkDeps, user: UserRow, context: LinkContext, answer: AppError): Promise<AppError> {
  await logActivity(deps.db, { userId: user.id, event: 'open_link_failed', clientId: context.clientId, device: context.device, at: deps.clock.now() });
  return answer;
}

/**
 * The open member the details and the password name, under the member's lock: the attempt is
 * counted before the password is checked, so that parallel guesses cannot exceed the limit; the
 * password is always hashed (an unknown e-mail against a dummy hash) and every field compared every
 * time. A locked open account (its login throttle) answers as the member's own lock does: unknown
 * e-mails lock the same way, so that 203 tells nothing either.
 */
async function matchOpenMember(deps: LinkDeps, user: UserRow, input: LinkInput, context: LinkContext): Promise<UserRow> {
  const now = deps.clock.now();
  const key = lockKey(user.id);
  const limit = LIMITS.openLinkFailuresBeforeLock;
  if (await isLocked(deps.db, key, now)) throw linkLocked();
  const { attempt } = await countAttempt(deps.db, key, now, limit, LIMITS.signupLockMs);
  if (attempt > limit) throw linkLocked();
  const proof = await checkCredentials(deps, input.email, input.password, context);
  const candidate = proof.ok ? proof.user : undefined;
  const stored = candidate ?? NOBODY;
  const same = [
    constantTimeEqual(stored.member_type, 'open'),
    constantTimeEqual(stored.last_name_kana ?? '', input.last_name_kana),
    constantTimeEqual(stored.first_name_kana ?? '', input.first_name_kana),
    constantTimeEqual(stored.birthday ?? '', input.birthday),
    constantTimeEqual(stored.profile_tel ?? '', input.tel),
  ].every(Boolean);
  if (candidate && same) {
    await clearAttempts(deps.db, key);
    return candidate;
  }
  const memberLocks = attempt >= limit;
  if (memberLocks) {
    await logActivity(deps.db, { userId: user.id, event: 'open_link_locked', device: context.device, at: now });
    securityEvent({ event: 'step.locked', memberId: user.id, reason: 'open_link' });
  }
  const openLocked = !proof.ok && proof.reason === 'locked';
  throw await failed(deps, user, context, memberLocks || openLocked ? linkLocked() : notMatched());
}
