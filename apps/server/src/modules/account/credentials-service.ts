import type { Kysely } from 'kysely';
import { LIMITS } from '@sso/contracts/constants';
import { TERM_VERSIONS, isTermKey } from '@sso/contracts/terms';
import type { Database } from '../../db/schema.ts';
import type { Clock } from '../../lib/clock.ts';
import { logActivity } from '../activity/activity-repo.ts';
import type { OAuthClient } from '../oauth/clients.ts';
import { clearAttempts, countAttempt } from './login-throttle-repo.ts';
import { parseLoginId, throttleKey } from './login-id.ts';
import { verifyPassword } from './passwords.ts';
import { acceptedTermVersions, findActiveUserByLoginId, type UserRow } from './user-repo.ts';

export type CredentialCheck = { ok: true; user: UserRow } | { ok: false; reason: 'credentials' | 'locked' };

/**
 * Checks an id and password (issue 2): the attempt is counted in the database before the hash is
 * checked; after 10 consecutive failures the id is locked for 15 minutes (result 203). Unknown ids
 * are counted and hashed the same way, so neither the answer nor its timing reveals a member.
 */
export async function checkCredentials(
  db: Kysely<Database>,
  clock: Clock,
  rawId: string,
  password: string,
  /** Where the attempt came from, for the activity log: the client and the coarse device (lib/device.ts). */
  origin: { clientId: string | null; device: string | null },
): Promise<CredentialCheck> {
  const { clientId, device } = origin;
  const id = parseLoginId(rawId);
  const key = throttleKey(id);
  const now = clock.now();
  const { attempt } = await countAttempt(db, key, now, LIMITS.loginFailuresBeforeLock, LIMITS.loginLockMs);
  const user = await findActiveUserByLoginId(db, id);
  if (attempt > LIMITS.loginFailuresBeforeLock) {
    if (user) await logActivity(db, { userId: user.id, event: 'login_locked', clientId, device, at: now });
    return { ok: false, reason: 'locked' };
  }
  const ok = await verifyPassword(user?.password_hash, password);
  if (ok && user) {
    await clearAttempts(db, key);
    return { ok: true, user };
  }
  if (user) await logActivity(db, { userId: user.id, event: 'login_failed', clientId, device, at: now });
  return { ok: false, reason: attempt >= LIMITS.loginFailuresBeforeLock ? 'locked' : 'credentials' };
}

/** The client's term documents whose current version the member has not accepted yet. */
export async function outstandingTerms(db: Kysely<Database>, userId: string, client: OAuthClient): Promise<string[]> {
  const accepted = await acceptedTermVersions(db, userId);
  return client.terms.filter((k) => isTermKey(k) && accepted.get(k) !== TERM_VERSIONS[k]);
}
