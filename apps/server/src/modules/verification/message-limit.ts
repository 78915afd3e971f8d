import type { Kysely } from 'kysely';
import { LIMITS } from '@sso/contracts/constants';
import { SIGNUP_MESSAGES } from '@sso/contracts/messages';
import { hitRateLimit } from '../../db/rate-limit-repo.ts';
import type { Database } from '../../db/schema.ts';
import { retryable } from '../../lib/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import { countOtpMessage } from '../../lib/metrics.ts';
import { lookupDigest } from '../../lib/secrets.ts';

/**
 * Counts one message to a recipient and says whether it may go: at most LIMITS.messagesPerRecipient
 * in LIMITS.messageWindowMs per address or number, across every flow that writes to it (the card
 * sign-up's codes, the open sign-up's mails, the password reset), so that nobody can flood a mailbox
 * through the forms. The key is a keyed digest, so that the counter table holds no address or number
 * (a plain hash of a mobile number is reversed by trying them all).
 */
export async function messageAllowed(db: Kysely<Database>, channel: 'sms' | 'mail', to: string, now: number): Promise<boolean> {
  const n = await hitRateLimit(db, `message:${channel}:${lookupDigest(to)}`, now, LIMITS.messageWindowMs);
  return n <= LIMITS.messagesPerRecipient;
}

/**
 * Counts one message carrying a code to a recipient (a code's first send and every resend); beyond
 * the limit 902, counted as `refused` in sso_otp_messages_total (lib/metrics.ts).
 */
export async function countMessage(deps: { db: Kysely<Database>; clock: Clock }, channel: 'sms' | 'mail', to: string): Promise<void> {
  if (await messageAllowed(deps.db, channel, to, deps.clock.now())) return;
  countOtpMessage(channel, 'refused');
  throw retryable(SIGNUP_MESSAGES.resendLimit);
}

/**
 * Counts a member's start of a flow that writes to a number they name (`name`: the numberless card,
 * the login mobile number), bounded as one recipient's messages are, so that nobody walks through
 * numbers with their account and sends a message to each; beyond the limit 902.
 */
export async function countMemberStart(deps: { db: Kysely<Database>; clock: Clock }, name: string, userId: string): Promise<void> {
  const starts = await hitRateLimit(deps.db, `${name}-start:${userId}`, deps.clock.now(), LIMITS.messageWindowMs);
  if (starts > LIMITS.messagesPerRecipient) throw retryable(SIGNUP_MESSAGES.resendLimit);
}
