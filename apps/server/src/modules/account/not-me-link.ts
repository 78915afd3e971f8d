import type { Kysely } from 'kysely';
import { LIMITS } from '@sso/contracts/constants';
import type { Database } from '../../db/schema.ts';
import type { MailLink } from '../notifications/compose-mail.ts';
import { addressBinding } from './address-binding.ts';
import { issueToken } from '../verification/one-time-secret.ts';

/** The SPA's confirmation page of the link (docs/decisions/0033-not-me-link.md). */
export const notMeUrl = (origin: string, token: string) => `${origin}/content/not-me?token=${encodeURIComponent(token)}`;

const DAYS = LIMITS.notMeLinkTtlMs / 86_400_000;

/**
 * The "not me" paragraph of a notice mail (decision 0033): a new `not_me` secret of the verification
 * kernel for the member (256 bits, SHA-256 at rest, LIMITS.notMeLinkTtlMs, single use), as the
 * link of the "passkey added" mail is (decision 0024), bound to the address the mail goes to. Every
 * notice mail carries one; whoever opens it and confirms ends every session of the member, and has a
 * password reset link mailed there while it is still the member's address. `sentTo` is the member's
 * former address in the mail of an e-mail change: the reset mail would go to the new one, which may
 * be an intruder's, so that link promises none and sends the member to the support desk.
 */
export async function notMeLink(deps: { db: Kysely<Database>; issuer: string }, userId: string, sentTo: { address: string; former?: boolean }, now: number): Promise<MailLink> {
  const token = await issueToken(deps.db, { purpose: 'not_me', subject: userId, now, binding: addressBinding(sentTo.address) });
  const act = sentTo.former ? 'すべての端末でログアウトし、お問い合わせ窓口までご連絡ください' : 'すべての端末でログアウトし、パスワードを再設定してください';
  return { label: `お心当たりのない場合は、次のURLから${act}（有効期限${DAYS}日、1回のみ）。`, url: notMeUrl(deps.issuer, token) };
}
