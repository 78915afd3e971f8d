import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { lookupDigest } from '../../lib/secrets.ts';
import { clearAttempts } from './login-throttle-repo.ts';

/** The throttle key: a keyed digest of the normalised id, so that the throttle table stores no address. */
export const throttleKey = (id: { email?: string; tel?: string }) => lookupDigest(id.email !== undefined ? `email:${id.email}` : `tel:${id.tel ?? ''}`);

/**
 * The login lock of a member's account (docs/decisions/0011-login-proof-and-account-lock.md): wrong
 * passwords by the e-mail, by the mobile number and at the password change count together, so that
 * ten failures lock the account whichever id they name. An id that is no member's keeps a lock of
 * its own (throttleKey), so that unknown ids are counted and locked as members are (decision 0003).
 */
export const accountLockKey = (userId: string) => lookupDigest(`member:${userId}`);

/** The lock a login attempt counts on: the member's account, or the id itself when it is no member's. */
export const loginLockKey = (user: { id: string } | undefined, id: { email?: string; tel?: string }) =>
  user ? accountLockKey(user.id) : throttleKey(id);

/**
 * Clears the member's run of failures: a password reset (the owner of the mailbox has proved who
 * they are) and a withdrawal (the freed ids start afresh). The ids' own keys go too, for the
 * failures counted on them before they were the member's.
 */
export async function clearLoginFailures(db: Kysely<Database>, user: { id: string; email: string; tel: string | null }): Promise<void> {
  await clearAttempts(db, accountLockKey(user.id));
  await clearAttempts(db, throttleKey({ email: user.email }));
  if (user.tel) await clearAttempts(db, throttleKey({ tel: user.tel }));
}
