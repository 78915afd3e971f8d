import { uniqueViolation } from '../../db/unique-violation.ts';
import type { Notifier, OutgoingMessage } from '../notifications/notifier.ts';
import { retryable } from '../../lib/app-error.ts';

/**
 * A logged-in member claims a new login identifier (an e-mail address, a mobile number) by a code
 * sent to it. Whether the identifier is already an account's must not show (OWASP ASVS 5.0 V6,
 * account enumeration): the request does the same work and gets the same answer either way; only
 * the message differs, and only the identifier's owner sees it. The confirmation writes the
 * identifier under its unique constraint, so that no code can make another account's identifier
 * the member's (decision 0014).
 */

/** The claim's one message: the code, or, when the identifier is taken, a notice to its owner (no code, not who asked). */
export const sendClaimMessage = (notifier: Notifier, taken: boolean, messages: { code: () => OutgoingMessage; taken: () => OutgoingMessage }) =>
  notifier.send(taken ? messages.taken() : messages.code());

/**
 * Runs the confirmation's write; an identifier taken by another account, before the request or in
 * the meantime, answers the neutral 902 `unavailable` and changes nothing.
 */
export async function writeUnlessTaken<T>(column: 'email' | 'tel', unavailable: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (uniqueViolation(err) === column) throw retryable(unavailable);
    throw err;
  }
}
