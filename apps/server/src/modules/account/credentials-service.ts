import type { Kysely } from 'kysely';
import { LIMITS } from '@sso/contracts/constants';
import { TERM_VERSIONS, isTermKey } from '@sso/contracts/terms';
import type { Database } from '../../db/schema.ts';
import type { Background } from '../../lib/background.ts';
import type { Clock } from '../../lib/clock.ts';
import { logActivity } from '../activity/activity-repo.ts';
import { loginRefused, securityEvent } from '../../lib/security-events.ts';
import type { OAuthClient } from '../clients/clients.ts';
import { hitRateLimit, unhitRateLimit } from '../../db/rate-limit-repo.ts';
import { oneCommit } from '../../db/one-commit.ts';
import { addressDigest } from '../../lib/address-bucket.ts';
import { loginLockKey } from '../verification/account-lock.ts';
import { clearAttempts, countAttempt } from '../verification/login-throttle-repo.ts';
import { parseLoginId } from './login-id.ts';
import { verifyPassword } from '../../lib/passwords.ts';
import { acceptedTermVersions, findSignInUserByLoginId, type UserRow } from './user-repo.ts';

/** 'suspended': the right password of a member an operator suspended (migration 0022); the login says whom to contact. */
export type CredentialCheck =
  | { ok: true; user: UserRow }
  | { ok: false; reason: 'credentials' | 'locked' | 'suspended'; /** The address's failures refused it (decision 0007), not the id's lock. */ byAddress?: true };

const LOCKED: CredentialCheck = { ok: false, reason: 'locked' };
const ADDRESS_LIMITED: CredentialCheck = { ok: false, reason: 'locked', byAddress: true };
const SUSPENDED: CredentialCheck = { ok: false, reason: 'suspended' };

/** Where a login attempt came from. */
export interface LoginOrigin {
  /** The client and the coarse device (lib/device.ts), for the activity log. */
  clientId: string | null;
  device: string | null;
  /** The client's network address (request.ip: behind a proxy, with TRUST_PROXY, the forwarded one). */
  address: string;
}

export interface CredentialDeps {
  db: Kysely<Database>;
  clock: Clock;
  /** Failed logins allowed from one network address in 15 minutes (LOGIN_ADDRESS_FAILURES; 0: no limit). */
  loginAddressFailures?: number;
  /** Where a member's failed login is logged, once the answer has gone out. */
  background: Background;
}

export const addressKey = (address: string) => `login-address:${addressDigest(address)}`;

/**
 * Checks an id and password (decision 0003): the attempt is counted in the database before the hash is
 * checked; after 10 consecutive failures the account is locked for 15 minutes (result 203), whichever
 * of its ids the failures named (verification/account-lock.ts, decision 0011). Unknown ids are looked up,
 * counted on their own lock and hashed the same way, so neither the answer nor its timing reveals
 * a member.
 * A suspended member's right password answers 'suspended' (migration 0022), never a session.
 * A network address with too many failures across any ids (password spraying,
 * decision 0007) is refused the same way, before any hash, until its window runs out.
 */
export async function checkCredentials(
  deps: CredentialDeps,
  rawId: string,
  password: string,
  origin: LoginOrigin,
  /**
   * What the caller writes for an active member whose password was right, in the commit that takes
   * the attempt's counts back (db/one-commit.ts): the login step's ticket. It must not throw for a
   * refusal (the counts would stay): it records it, for the caller to answer once this returns.
   */
  admitted?: (db: Kysely<Database>, user: UserRow) => Promise<void>,
): Promise<CredentialCheck> {
  const { db, clock } = deps;
  const { clientId, device } = origin;
  const addressLimit = deps.loginAddressFailures ?? LIMITS.loginFailuresPerAddress;
  const id = parseLoginId(rawId);
  const now = clock.now();
  // The address first: a refused address must not count on the id (decision 0007), nor lock it.
  // Counted before the hash like the id's attempts, so that parallel guesses cannot pass together;
  // a success takes its count back, so the address's count is its failures and those in flight.
  const counted = addressLimit > 0;
  const bucket = addressKey(origin.address);
  // Both counts and the lookup between them in one commit (db/one-commit.ts), committed before the hash.
  const counts = await oneCommit(db, async (db) => {
    if (counted && (await hitRateLimit(db, bucket, now, LIMITS.loginLockMs)) > addressLimit) return undefined;
    // The id is looked up for every attempt, a member's or not, to find the lock it counts on.
    // A suspended member is looked up, counted and hashed as an active one: only the right password tells.
    const user = await findSignInUserByLoginId(db, id);
    const key = loginLockKey(user, id);
    return { user, key, ...(await countAttempt(db, key, now, LIMITS.loginFailuresBeforeLock, LIMITS.loginLockMs)) };
  });
  if (!counts) return loginRefused(clientId, null, 'address_limited', ADDRESS_LIMITED);
  const { user, key, attempt } = counts;
  // While locked nothing more is done, for a member's id and an unknown one alike: attempts that
  // anyone can repeat without bound must not differ in time (docs/security.md) nor fill the
  // activity log.
  if (attempt > LIMITS.loginFailuresBeforeLock) return loginRefused(clientId, user?.id ?? null, 'locked', LOCKED);
  const ok = await verifyPassword(user?.password_hash, password);
  if (ok && user) {
    const suspended = user.status === 'suspended';
    await oneCommit(db, async (db) => {
      await clearAttempts(db, key);
      if (counted) await unhitRateLimit(db, bucket);
      if (!suspended) await admitted?.(db, user);
    });
    return suspended ? loginRefused(clientId, user.id, 'suspended', SUSPENDED) : { ok: true, user };
  }
  const locks = attempt === LIMITS.loginFailuresBeforeLock;
  // The failure itself, then the lock it engaged (a member's: an unknown id's lock locks no account).
  securityEvent({ event: 'login.failed', memberId: user?.id ?? null, clientId, reason: user ? 'wrong_password' : 'unknown_account' });
  if (locks && user) securityEvent({ event: 'account.locked', memberId: user.id, clientId, reason: 'login' });
  if (user) {
    // Written after the answer, not before it: a member's failed login must take no longer than an
    // unknown id's (the enumeration timing checks found the log row's insert in the member's answers).
    deps.background.run('login failure log', async () => {
      await logActivity(db, { userId: user.id, event: 'login_failed', clientId, device, address: origin.address, at: now });
      // The failure that sets the lock logs it, once.
      if (locks) await logActivity(db, { userId: user.id, event: 'login_locked', clientId, device, address: origin.address, at: now });
    });
  }
  return { ok: false, reason: locks ? 'locked' : 'credentials' };
}

/** The client's term documents whose current version the member has not accepted yet. */
export async function outstandingTerms(db: Kysely<Database>, userId: string, client: OAuthClient): Promise<string[]> {
  const accepted = await acceptedTermVersions(db, userId);
  return client.terms.filter((k) => isTermKey(k) && accepted.get(k) !== TERM_VERSIONS[k]);
}
