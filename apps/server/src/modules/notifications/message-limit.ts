import type { Kysely } from 'kysely';
import { LIMITS } from '@sso/contracts/constants';
import { hitRateLimit } from '../../db/rate-limit-repo.ts';
import type { Database } from '../../db/schema.ts';
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
