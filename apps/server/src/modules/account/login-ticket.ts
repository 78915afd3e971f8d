import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { lookupDigest, sha256 } from '../../lib/secrets.ts';
import type { Clock } from '../../lib/clock.ts';
import { issueToken, redeemToken } from '../verification/one-time-secret.ts';
import { memberPasskeys } from '../passkeys/passkey-repo.ts';
import { parseLoginId } from './login-id.ts';
import { findActiveUserByLoginId, type UserRow } from './user-repo.ts';

/**
 * One password hash per login (docs/performance.md). The SPA's login is two requests: POST
 * /api/auth/login checks the password and reCAPTCHA and answers the outstanding terms, then a
 * hidden form posts the same id and password to /api/auth/authorize (SPEC.md section 4). Hashing
 * the password in both would halve the logins a node can take at a peak, argon2id being the
 * costliest work the server does.
 *
 * The login step therefore answers a ticket: 256 random bits, stored as SHA-256 in `verifications`
 * (ARCHITECTURE.md: one table for every one-time secret), for the member (its subject), bound to
 * the client and to the member's password hash of the moment (a keyed digest of both), valid
 * LIMITS.loginTicketTtlMs (about a minute), used up by one conditional update. An authorize post
 * that carries a live ticket of that member and client, whose password has not changed since, is
 * the member who has just passed the checked login step; any other ticket is used up and the
 * authorize step checks reCAPTCHA and the password itself (decision 0011), so that the ticket
 * only ever spares work and never lets in anyone the login step would not. A password change,
 * a reset and every other end of the member's sessions kill the member's tickets too
 * (modules/sessions/end-sessions.ts).
 */
const bindingOf = (user: Pick<UserRow, 'password_hash'>, clientId: string, passkeyId?: string) =>
  lookupDigest(`login-ticket:${clientId} ${user.password_hash}${passkeyId ? ` passkey ${passkeyId}` : ''}`);

/**
 * How the member proved who they are at the login step: the password, or a passkey (decision 0024).
 * A passkey sign-in's ticket is of its own purpose, `passkey_ticket`, which lives long enough for the
 * additional terms to be read (the SPA holds no password to fall back on), and its token says so by
 * its prefix, so that redeeming it looks up one purpose only.
 */
export type LoginProof = 'password' | 'passkey';
const PASSKEY_PREFIX = 'pk.';

/**
 * The RFC 8176 method of a passkey sign-in, for the ID token's `amr` (decision 0025): `hwk`, a key bound
 * to its device (WebAuthn backup eligibility unset, device_type singleDevice), or `swk`, a key a passkey
 * provider syncs (multiDevice), fixed for the credential's life (assertion.ts), so that it is read from
 * the passkey the ticket is bound to when the ticket is redeemed.
 */
export type PasskeyKind = 'hwk' | 'swk';
const passkeyKindOf = (deviceType: string): PasskeyKind => (deviceType === 'singleDevice' ? 'hwk' : 'swk');

/** How the member signed in, as RFC 8176 `amr` values. */
export type SignInMethods = ['pwd'] | [PasskeyKind];

export const issueLoginTicket = async (
  db: Kysely<Database>,
  user: Pick<UserRow, 'id' | 'password_hash'>,
  clientId: string,
  now: number,
  /** The passkey (its row id) of a passkey sign-in; none for the password. */
  passkeyId?: string,
): Promise<string> => {
  const purpose = passkeyId ? 'passkey_ticket' : 'login_ticket';
  const token = await issueToken(db, { purpose, subject: user.id, now, binding: bindingOf(user, clientId, passkeyId) });
  return passkeyId ? `${PASSKEY_PREFIX}${token}` : token;
};

/** A live ticket used up: the member, how they proved it, by which RFC 8176 methods, and the passkey of a passkey sign-in. */
export interface RedeemedTicket {
  user: UserRow;
  proof: LoginProof;
  amr: SignInMethods;
  passkeyId?: string;
}

/**
 * The member a live ticket of this id and client stands for, how they proved it and by which RFC 8176
 * methods, the ticket used up; undefined: the authorize step checks for itself.
 *
 * A passkey ticket is bound to the passkey that signed in, and is redeemed only while that passkey is
 * still one of the member's (decision 0024, "After a password reset"): an attacker who added a passkey
 * and holds its ticket gets nothing once the member removes the passkey, by the settings, by the mail's
 * link or by a withdrawal, even where no ending event ended the ticket itself. A ticket from before the
 * binding named the passkey is refused (it lives ten minutes; the member signs in again). The
 * passkey's id is answered, for the code's transaction to look again under the member's row
 * (issueCodeRedirect): a deletion committed after this read still stops the code.
 */
export async function redeemLoginTicket(
  deps: { db: Kysely<Database>; clock: Clock },
  p: { ticket: string; rawId: string; clientId: string },
): Promise<RedeemedTicket | undefined> {
  const proof: LoginProof = p.ticket.startsWith(PASSKEY_PREFIX) ? 'passkey' : 'password';
  const token = proof === 'passkey' ? p.ticket.slice(PASSKEY_PREFIX.length) : p.ticket;
  const ticket = await redeemToken(deps.db, proof === 'passkey' ? 'passkey_ticket' : 'login_ticket', sha256(token), deps.clock.now());
  if (ticket === undefined) return undefined;
  const user = await findActiveUserByLoginId(deps.db, parseLoginId(p.rawId));
  if (!user || ticket.subject !== user.id) return undefined;
  if (proof === 'password') return ticket.binding === bindingOf(user, p.clientId) ? { user, proof, amr: ['pwd'] } : undefined;
  const passkey = (await memberPasskeys(deps.db, user.id)).find((row) => ticket.binding === bindingOf(user, p.clientId, row.id));
  return passkey ? { user, proof, amr: [passkeyKindOf(passkey.device_type)], passkeyId: passkey.id } : undefined;
}
