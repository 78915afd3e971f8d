import type { Kysely } from 'kysely';
import type { z } from 'zod';
import type { emailChangeOtpRequestSchema, emailChangeRequestSchema } from '@sso/contracts/account';
import { OK_RESPONSE, type BaseResponse } from '@sso/contracts/common';
import { SIGNUP_MESSAGES } from '@sso/contracts/messages';
import { ACCOUNT_MESSAGES } from '@sso/contracts/screen-messages';
import type { Database } from '../../db/schema.ts';
import { retryable } from '../../lib/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import { newId, randomToken, sha256 } from '../../lib/secrets.ts';
import { logActivity } from '../activity/activity-repo.ts';
import { notMeLink } from '../account/not-me-link.ts';
import { emailInUse, setMemberEmail } from '../account/member-repo.ts';
import { findActiveUserById, type UserRow } from '../account/user-repo.ts';
import { memberFlowExpired, memberFlowLocked } from '../member-flows/member-flow-service.ts';
import { withOneTimePassword, type Notifier } from '../notifications/notifier.ts';
import type { BearerToken } from '../oauth/token-service.ts';
import { endMemberSessions } from '../sessions/end-sessions.ts';
import { newCode } from '../verification/codes.ts';
import { passCheck, startFlow } from '../verification/flow.ts';
import { countMessage } from '../verification/message-limit.ts';
import { checkSecret } from '../verification/secret-check.ts';
import { sendClaimMessage, writeUnlessTaken } from './identifier-claim.ts';
import { emailChangeCodeMail, emailChangedMail, emailTakenMail } from './mails.ts';
import {
  completeChange,
  findPendingChange,
  insertEmailChange,
  replacePendingChanges,
} from './member-change-repo.ts';
import { securityEvent } from '../../lib/security-events.ts';

export interface AccountChangeDeps {
  db: Kysely<Database>;
  clock: Clock;
  notifier: Notifier;
  /** PUBLIC_ORIGIN: the notice mail's "not me" link points at the SPA there (decision 0033). */
  issuer: string;
}

/** What a logged change records besides the event: the device of the request (lib/device.ts). */
export interface ChangeContext {
  device: string | null;
}

/** A change record lives 30 minutes (the spec gives no figure); its code LIMITS.otpTtlMs. */
const CHANGE_TTL_MS = 30 * 60_000;

/**
 * POST /api/auth/email/change (SPEC.md section 7; docs/security.md, no enumeration). The same
 * address answers emailSame. Otherwise, within the per-address message limit, a change record (30
 * minutes, its register_token stored as SHA-256) replaces the member's earlier ones with a 6-digit
 * code (argon2id, LIMITS.otpTtlMs, 5 tries), and one mail goes to the NEW address: the code, or,
 * when the address is already any account's (active or withdrawn), a notice to its owner and no
 * code. Both cases do the same work and get the same answer, so that the answer and its timing
 * never tell a member whether an address is someone's (OWASP ASVS 5.0 V6, account enumeration);
 * such a change can never be confirmed, and if a code were guessed, the confirmation answers
 * emailUnavailable.
 */
export async function requestEmailChange(
  deps: AccountChangeDeps,
  user: UserRow,
  input: z.infer<typeof emailChangeRequestSchema>,
  /** The session (token family) asking: the only one that may confirm the change (decision 0012). */
  familyId: string,
): Promise<BaseResponse & { register_token: string }> {
  const email = input.email.toLowerCase();
  if (email === user.email) throw retryable(ACCOUNT_MESSAGES.emailSame);
  await countMessage(deps, 'mail', email);
  const now = deps.clock.now();
  const taken = await emailInUse(deps.db, email);
  const { code, hash } = await newCode();
  const token = randomToken();
  const id = newId();
  const expiresAt = now + CHANGE_TTL_MS;
  // The change replaces the member's earlier ones, whose codes stop working (verification/flow.ts).
  await startFlow(deps.db, {
    purpose: 'email_change',
    hash,
    now,
    flowId: id,
    flowExpiresAt: expiresAt,
    store: async (trx) => {
      const replaced = await replacePendingChanges(trx, user.id, now);
      await insertEmailChange(trx, {
        id,
        user_id: user.id,
        new_email: email,
        token_hash: sha256(token),
        state: 'pending',
        created_at: now,
        updated_at: now,
        expires_at: expiresAt,
        family_id: familyId,
      });
      return replaced;
    },
  });
  await sendClaimMessage(deps.notifier, taken, { code: () => withOneTimePassword(emailChangeCodeMail(email, code)), taken: () => emailTakenMail(email) });
  return { ...OK_RESPONSE, register_token: token };
}

/**
 * POST /api/auth/email/change/otp (SPEC.md section 7; Bearer, decision 0012). The register_token names the
 * change, and the Bearer token must be of the session that asked for it: a change asked in another
 * session, or in one that has ended (its tokens are dead: 401, and a new login is another session),
 * answers 300 changeExpired before any code is checked. The code is checked under the member's
 * lock (5 wrong -> 203 for LIMITS.signupLockMs). A right code, in one transaction: the record is
 * finished and the code used (of parallel right answers one goes on), users.email set, every
 * session ended, 'email_changed' logged. Then the OLD address is told. An address taken by someone
 * since the request answers 902 emailUnavailable and changes nothing.
 */
export async function confirmEmailChange(
  deps: AccountChangeDeps,
  input: z.infer<typeof emailChangeOtpRequestSchema>,
  context: ChangeContext & { session: Pick<BearerToken, 'userId' | 'familyId'> },
): Promise<BaseResponse> {
  const tokenHash = sha256(input.register_token);
  const now = deps.clock.now();
  const change = await findPendingChange(deps.db, tokenHash, now);
  // Another session, even the member's own, cannot confirm it, and nor can anyone once its session ended (decision 0012).
  if (!change || change.user_id !== context.session.userId || change.family_id !== context.session.familyId) throw memberFlowExpired();
  // Wrong codes of one member, across their change records, lock the check (verification/purposes.ts).
  const verificationId = await checkSecret(deps.db, now, {
    subject: change.id,
    purpose: 'email_change',
    lockOwner: change.user_id,
    secret: input.otp_email,
    locked: memberFlowLocked,
    wrong: () => retryable(SIGNUP_MESSAGES.otpWrong),
    // A parallel right answer may have finished the change; otherwise the code expired.
    noTryLeft: async () => ((await findPendingChange(deps.db, tokenHash, now)) ? retryable(SIGNUP_MESSAGES.otpExpired) : memberFlowExpired()),
  });
  const oldEmail = await writeUnlessTaken('email', ACCOUNT_MESSAGES.emailUnavailable, () =>
    deps.db.transaction().execute(async (trx) => {
      const move = (db: Kysely<Database>) => completeChange(db, change.id, now);
      if (!(await passCheck(trx, { move, verificationId, now, expired: memberFlowExpired }))) throw memberFlowExpired();
      const user = await findActiveUserById(trx, change.user_id);
      if (!user) throw memberFlowExpired();
      await setMemberEmail(trx, user.id, change.new_email, now);
      await endMemberSessions(trx, user.id, now);
      await logActivity(trx, { userId: user.id, event: 'email_changed', device: context.device, at: now });
      securityEvent({ event: 'email.changed', memberId: user.id });
      return user.email;
    }),
  );
  await deps.notifier.send(emailChangedMail(oldEmail, await notMeLink(deps, change.user_id, { address: oldEmail, former: true }, now)));
  return OK_RESPONSE;
}
