import { sql, type Expression, type ExpressionBuilder, type Kysely, type SqlBool } from 'kysely';
import { MAX_RATE_WINDOW_MS } from './rate-limit-repo.ts';
import type { Database } from './schema.ts';

const DAY = 24 * 60 * 60 * 1000;
/** A withdrawn member's activity log is kept this long after the withdrawal (docs/withdrawal.md). */
export const WITHDRAWN_LOG_RETENTION_MS = 365 * DAY;
/**
 * How long a member's activity log is kept (ACTIVITY_RETENTION_DAYS, docs/operations.md "Retention"):
 * 400 days, over the year card-industry security logs are kept at least (PCI DSS requirement 10.5.1).
 */
export const ACTIVITY_RETENTION_DEFAULT_DAYS = 400;
/** Rows one delete statement removes at most, so that no sweep holds a long lock. */
export const PURGE_BATCH_SIZE = 1000;
/** How long one sweep deletes before it leaves the rest to the next one (each kind still gets a batch). */
export const PURGE_BUDGET_MS = 30_000;

export interface PurgeOptions {
  /** Days a member's activity log is kept (ACTIVITY_RETENTION_DAYS). */
  activityRetentionDays?: number;
  batchSize?: number;
  budgetMs?: number;
}

/** Rows deleted, by table. */
export type PurgeCounts = Partial<Record<keyof Database, number>>;

type Table = keyof Database & string;
type Where<T extends Table> = (eb: ExpressionBuilder<Database, T>) => Expression<SqlBool>;

/** One sweep's batches: their size, the time they may take, and what they deleted. */
class Batches {
  readonly counts: PurgeCounts = {};
  private readonly deadline: number;
  constructor(
    private readonly db: Kysely<Database>,
    readonly size: number,
    budgetMs: number,
  ) {
    this.deadline = performance.now() + budgetMs;
  }

  /** Whether to run another batch of a kind after a full one: while the budget lasts. */
  more(deleted: number): boolean {
    return deleted === this.size && performance.now() < this.deadline;
  }

  count(table: Table, n: number): void {
    this.counts[table] = (this.counts[table] ?? 0) + n;
  }

  /**
   * Deletes the rows of `table` that `where` selects, by their primary key `key`, at most `size` a
   * statement, looping while the budget lasts. Between statements the event loop runs (SQLite's
   * driver is synchronous).
   */
  async delete<T extends Table>(table: T, key: string, where: Where<T>): Promise<void> {
    // The table is a parameter here; `where` is typed against it above.
    const db = this.db as unknown as Kysely<Record<string, Record<string, unknown>>>;
    const name: string = table;
    let deleted: number;
    do {
      const keys = db.selectFrom(name).select(sql.ref(key).as('k')).where(where as never).limit(this.size);
      // The condition again outside, so that a key that is not unique alone (token_grants) is read by its index.
      const r = await db.deleteFrom(name).where(where as never).where(sql.ref(key), 'in', keys).executeTakeFirst();
      deleted = Number(r.numDeletedRows);
      this.count(table, deleted);
      await new Promise((resolve) => setImmediate(resolve));
    } while (this.more(deleted));
  }
}

/**
 * Removes rows that no longer decide anything, in batches of at most `batchSize` rows a statement
 * within a time budget (the next hourly sweep goes on): authorization codes a day after expiry (kept
 * that long so that a late replay is still recognised), login and sign-up throttles whose lock or run
 * has lapsed, sign-up flows, pending open sign-ups and one-time secrets past their expiry,
 * rate-limit counters whose window has ended, pushed authorization requests past their lifetime, outbox messages a day after delivery or a week
 * after they were given up, e-mail changes, direct-login grants and member flows past their expiry,
 * SSO sessions a day after they lapsed or ended, operator sessions and enrolment links a day after
 * they lapsed or ended, partner clients' secrets a day after their retirement, token families a day
 * after they were revoked or their last refresh token lapsed (`purgeTokenFamilies`), the activity log
 * older than ACTIVITY_RETENTION_DAYS, and the activity log of members withdrawn more than
 * WITHDRAWN_LOG_RETENTION_MS ago (docs/withdrawal.md). Returns the rows deleted, by table.
 */
export async function purgeExpired(db: Kysely<Database>, now: number, options: PurgeOptions = {}): Promise<PurgeCounts> {
  const b = new Batches(db, options.batchSize ?? PURGE_BATCH_SIZE, options.budgetMs ?? PURGE_BUDGET_MS);
  await b.delete('auth_codes', 'code_hash', (eb) => eb('expires_at', '<', now - DAY));
  await b.delete('login_throttle', 'key', (eb) =>
    eb.and([eb('updated_at', '<', now - DAY), eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', now)])]),
  );
  await b.delete('signup_flows', 'id', (eb) => eb('expires_at', '<', now));
  await b.delete('open_signups', 'id', (eb) => eb('expires_at', '<', now));
  await b.delete('verifications', 'id', (eb) => eb('expires_at', '<', now));
  await b.delete('rate_limits', 'key', (eb) => eb('window_start', '<', now - MAX_RATE_WINDOW_MS));
  // A one-time proof's identifier once the proof itself could no longer be accepted.
  await b.delete('used_jtis', 'digest', (eb) => eb('expires_at', '<', now));
  // A pushed authorization request past its lifetime (RFC 9126; decision 0036): nothing takes it any more.
  await b.delete('pushed_authorization_requests', 'uri_hash', (eb) => eb('expires_at', '<', now));
  // Delivered messages are kept a day and given-up ones a week, for support to look into.
  await b.delete('outbox', 'id', (eb) => eb.or([eb('sent_at', '<', now - DAY), eb('failed_at', '<', now - 7 * DAY)]));
  await b.delete('email_changes', 'id', (eb) => eb('expires_at', '<', now));
  await b.delete('direct_logins', 'id', (eb) => eb('expires_at', '<', now));
  await b.delete('member_flows', 'id', (eb) => eb('expires_at', '<', now));
  // SSO sessions a day after they lapsed or ended (decision 0026).
  await b.delete('sso_sessions', 'id', (eb) => eb.or([eb('expires_at', '<', now - DAY), eb('ended_at', '<', now - DAY)]));
  // Operator sessions a day after they ended or reached their absolute limit, enrolment links a day after expiry (decision 0032).
  await b.delete('operator_sessions', 'id', (eb) => eb.or([eb('expires_at', '<', now - DAY), eb('ended_at', '<', now - DAY)]));
  await b.delete('operator_enrolments', 'id', (eb) => eb('expires_at', '<', now - DAY));
  // A client's secret a day after its retirement (decision 0031): nothing accepts it past retire_at,
  // and the day lets the console still list the secret just retired with its time; the audit log
  // keeps the rotation and the retirement. The nodes' snapshots drop it with the registry's next change.
  await db.deleteFrom('oauth_client_secrets').where('retire_at', 'is not', null).where('retire_at', '<', now - DAY).execute();
  await purgeTokenFamilies(b, db, now - DAY);
  // The activity log past its retention; a withdrawn member's all of it a year after the withdrawal.
  // The 'withdrawn' row dates the withdrawal; it goes with the rest of the member's log.
  await b.delete('activity_log', 'id', (eb) => eb('created_at', '<', now - (options.activityRetentionDays ?? ACTIVITY_RETENTION_DEFAULT_DAYS) * DAY));
  const withdrawnLongAgo = db
    .selectFrom('activity_log')
    .select('user_id')
    .where('event', '=', 'withdrawn')
    .where('created_at', '<', now - WITHDRAWN_LOG_RETENTION_MS);
  await b.delete('activity_log', 'id', (eb) => eb('user_id', 'in', withdrawnLongAgo));
  return b.counts;
}

/**
 * Token families that can no longer act, ended before `before`: revoked, or whose refresh tokens all
 * lapsed (each refresh's new grant carries the family's latest expiry, tokens.ts), with their grants
 * (grants first: they reference the family). The day's margin keeps a just-ended family's grants for
 * the refresh retry's grace and a replay's reuse detection (decision 0002) and for support. A live
 * family is never touched, nor any of its rotated grants: reuse detection finds a replayed token's
 * grant by its key (token-service.ts `refreshTokens`), and a grant gone would answer a replay
 * invalid_grant without revoking the family. A live chain therefore keeps one grant per refresh
 * until it ends (docs/operations.md "Retention").
 *
 * The families are read in key order from where the last batch stopped, so that one sweep reads
 * each family once however many live ones there are; a family whose grants go but which is left
 * (a crash between the two statements) has no grant left and is found ended by the next sweep.
 */
async function purgeTokenFamilies(b: Batches, db: Kysely<Database>, before: number): Promise<void> {
  let after = '';
  let found: number;
  do {
    const ended = (
      await db
        .selectFrom('token_families as f')
        .select('f.id')
        .where('f.id', '>', after)
        .where((eb) =>
          eb.or([
            eb('f.revoked_at', '<', before),
            eb.not(eb.exists(eb.selectFrom('token_grants as g').select('g.id').whereRef('g.family_id', '=', 'f.id').where('g.refresh_expires_at', '>=', before))),
          ]),
        )
        .orderBy('f.id')
        .limit(b.size)
        .execute()
    ).map((r) => r.id);
    found = ended.length;
    if (found === 0) break;
    after = ended[found - 1]!;
    await b.delete('token_grants', 'id', (eb) => eb('family_id', 'in', ended));
    // Only those whose grants are all gone: the budget may stop a long chain's grants half-way.
    const r = await db
      .deleteFrom('token_families')
      .where('id', 'in', ended)
      .where((eb) => eb.not(eb.exists(eb.selectFrom('token_grants').select('token_grants.id').whereRef('token_grants.family_id', '=', 'token_families.id'))))
      .executeTakeFirst();
    b.count('token_families', Number(r.numDeletedRows));
  } while (b.more(found));
}
