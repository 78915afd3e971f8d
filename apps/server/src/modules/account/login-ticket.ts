import type { Kysely } from 'kysely';
import { LIMITS } from '@sso/contracts/constants';
import type { Database } from '../../db/schema.ts';
import { consumeLinkSecret, insertVerification } from '../../db/verification-repo.ts';
import { newId, randomToken, sha256 } from '../../lib/secrets.ts';
import type { Clock } from '../../lib/clock.ts';
import { parseLoginId } from './login-id.ts';
import { findActiveUserByLoginId, type UserRow } from './user-repo.ts';

/**
 * One password hash per login (issue 9). The SPA's login is two requests: POST /api/auth/login
 * checks the password and answers the outstanding terms, then a hidden form posts the same id and
 * password to /api/auth/authorize (SPEC.md section 4). Hashing the password in both would halve
 * the logins a node can take at a peak, argon2id being the costliest work the server does.
 *
 * The login step therefore answers a ticket: 256 random bits, stored as SHA-256 in `verifications`
 * (ARCHITECTURE.md: one table for every one-time secret), bound to the member and the client, valid
 * LIMITS.loginTicketTtlMs, used up by one conditional update. An authorize post that carries a live
 * ticket of that member and client is the member who has just proved the password; any other
 * ticket is used up and the password is checked as before, so that the ticket only ever spares
 * work and never lets in anyone the password would not.
 */
const subjectOf = (userId: string, clientId: string) => `${userId} ${clientId}`;

export async function issueLoginTicket(db: Kysely<Database>, userId: string, clientId: string, now: number): Promise<string> {
  const ticket = randomToken();
  await insertVerification(db, {
    id: newId(),
    purpose: 'login_ticket',
    subject: subjectOf(userId, clientId),
    secret_hash: sha256(ticket),
    attempts: 0,
    max_attempts: 1,
    created_at: now,
    expires_at: now + LIMITS.loginTicketTtlMs,
    consumed_at: null,
  });
  return ticket;
}

/** The member a live ticket of this id and client stands for, the ticket used up; undefined: check the password. */
export async function redeemLoginTicket(
  deps: { db: Kysely<Database>; clock: Clock },
  p: { ticket: string; rawId: string; clientId: string },
): Promise<UserRow | undefined> {
  const subject = await consumeLinkSecret(deps.db, 'login_ticket', sha256(p.ticket), deps.clock.now());
  if (subject === undefined) return undefined;
  const user = await findActiveUserByLoginId(deps.db, parseLoginId(p.rawId));
  return user && subject === subjectOf(user.id, p.clientId) ? user : undefined;
}
