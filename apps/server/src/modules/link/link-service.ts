import type { Kysely } from 'kysely';
import type { z } from 'zod';
import { LIMITS } from '@sso/contracts/constants';
import { LINK_MESSAGES, SERVER_MESSAGES } from '@sso/contracts/messages';
import type { linkOpenRequestSchema, linkOpenResponseSchema } from '@sso/contracts/points';
import { RESULT } from '@sso/contracts/result-codes';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../http/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import { constantTimeEqual } from '../../lib/secrets.ts';
import type { PointLedger } from '../../ports/point-ledger.ts';
import { logActivity } from '../activity/activity-repo.ts';
import { endLogin } from '../account-change/withdraw-service.ts';
import { clearAttempts, countAttempt, isLocked } from '../account/login-throttle-repo.ts';
import type { UserRow } from '../account/user-repo.ts';
import { retryable } from '../signup/flow-service.ts';
import { findActiveOpenMember } from './link-repo.ts';

export interface LinkDeps {
  db: Kysely<Database>;
  clock: Clock;
  pointLedger: PointLedger;
}

/** What a logged event records besides the event: the device of the request (lib/device.ts). */
export interface LinkContext {
  device: string | null;
}

type LinkInput = z.infer<ReturnType<typeof linkOpenRequestSchema>>;
type OpenMember = NonNullable<Awaited<ReturnType<typeof findActiveOpenMember>>>;

const notMatched = () => retryable(LINK_MESSAGES.notMatched);
const linkLocked = () => new AppError(RESULT.LOCKED, LINK_MESSAGES.locked);
/** Failed matches of one card member. */
const lockKey = (userId: string) => `open-link:${userId}`;
/**
 * One link at a time per open member: a lease on the login throttle's atomic counter, so that two
 * parallel links of the same open account cannot both call the ledger. It lapses by itself if the
 * process dies in between.
 */
const claimKey = (openMemberId: string) => `open-link-claim:${openMemberId}`;
const CLAIM_MS = 60_000;
/** Compared when no open member has the e-mail, so that a miss costs what a mismatch costs. */
const NOBODY = { last_name_kana: '', first_name_kana: '', birthday: '', tel: '' };

/**
 * POST /api/link/open (decision 0006; SPEC.md sections 1, 3 and 6): a card member takes over an
 * open account's points. Open members answer 300; a member who already has an open account 902.
 * The active open member with the e-mail must have the same kana names, birthday and phone; a
 * failed match never says which field differed, nor whether the e-mail exists. 5 failed matches
 * by one member lock the link for 30 minutes (203, logged). A match moves the open account's points
 * (the point ledger, outside any transaction of ours), then one transaction ends the open member's
 * login as a withdrawal does and logs 'open_linked' for both members (and 'withdrawn' for the open one).
 */
export async function linkOpenAccount(
  deps: LinkDeps,
  user: UserRow,
  input: LinkInput,
  context: LinkContext,
): Promise<z.infer<typeof linkOpenResponseSchema>> {
  if (user.member_type !== 'card') throw new AppError(RESULT.ACCESS_DENIED, LINK_MESSAGES.cardMembersOnly);
  if ((await deps.pointLedger.balances(user.id)).open !== null) throw retryable(LINK_MESSAGES.alreadyLinked);
  const open = await matchOpenMember(deps, user, input, context);
  const now = deps.clock.now();
  const { attempt } = await countAttempt(deps.db, claimKey(open.id), now, 1, CLAIM_MS);
  // Another link of this open account is under way: to this member it is no longer there to match.
  if (attempt > 1) throw notMatched();
  try {
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
  return { result_code: RESULT.OK, result_message: SERVER_MESSAGES.ok, aqf_point_open: balances.open ?? 0 };
}

/**
 * The open member the details name, under the member's lock: the attempt is counted before the
 * comparison, so that parallel guesses cannot exceed the limit; every field is compared every time.
 */
async function matchOpenMember(deps: LinkDeps, user: UserRow, input: LinkInput, context: LinkContext): Promise<OpenMember> {
  const now = deps.clock.now();
  const key = lockKey(user.id);
  const limit = LIMITS.openLinkFailuresBeforeLock;
  if (await isLocked(deps.db, key, now)) throw linkLocked();
  const { attempt } = await countAttempt(deps.db, key, now, limit, LIMITS.signupLockMs);
  if (attempt > limit) throw linkLocked();
  const candidate = await findActiveOpenMember(deps.db, input.email.toLowerCase());
  const stored = candidate ?? NOBODY;
  const same = [
    constantTimeEqual(stored.last_name_kana ?? '', input.last_name_kana),
    constantTimeEqual(stored.first_name_kana ?? '', input.first_name_kana),
    constantTimeEqual(stored.birthday ?? '', input.birthday),
    constantTimeEqual(stored.tel ?? '', input.tel),
  ].every(Boolean);
  if (!candidate || !same) {
    if (attempt < limit) throw notMatched();
    await logActivity(deps.db, { userId: user.id, event: 'open_link_locked', device: context.device, at: now });
    throw linkLocked();
  }
  await clearAttempts(deps.db, key);
  return candidate;
}
