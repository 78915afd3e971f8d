import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * The operators' audit log and the member's suspension (docs/operations.md, "The audit log";
 * docs/security.md).
 *
 * `audit_log` is append-only: a trigger raises on every UPDATE, and on every DELETE but the retention
 * purge's (modules/audit/audit-repo.ts, `purgeAudit`). The purge opens a window inside its own
 * transaction, a row of `audit_purge_window` naming the time before which rows may go; it deletes those
 * rows and the window row before it commits, so that no other transaction ever sees a window open
 * (READ COMMITTED on PostgreSQL; one writer at a time on SQLite). On PostgreSQL a TRUNCATE raises too.
 * Times are ms, as everywhere; `detail` is JSON.
 *
 * `users.suspended_at`: when an operator suspended the member (status 'suspended'), null otherwise.
 * `sso_sessions.address`: the network address of the session's login or last recorded use, for the
 * operators' view of a member's sessions; null for sessions from before.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('audit_log')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('operator_id', 'text', (c) => c.notNull())
    .addColumn('operator_role', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('member_id', 'text')
    .addColumn('client_id', 'text')
    .addColumn('reason', 'text')
    .addColumn('ticket', 'text')
    .addColumn('address', 'text')
    .addColumn('request_id', 'text')
    .addColumn('detail', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('audit_log_time').on('audit_log').columns(['created_at', 'id']).execute();
  for (const column of ['operator_id', 'member_id', 'client_id', 'action']) {
    await db.schema.createIndex(`audit_log_${column}`).on('audit_log').columns([column, 'created_at']).execute();
  }
  await db.schema
    .createTable('audit_purge_window')
    .addColumn('purge_before', 'bigint', (c) => c.notNull())
    .execute();

  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`
      CREATE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'DELETE' AND EXISTS (SELECT 1 FROM audit_purge_window w WHERE OLD.created_at < w.purge_before) THEN
          RETURN OLD;
        END IF;
        RAISE EXCEPTION 'audit_log is append-only' USING ERRCODE = 'restrict_violation';
      END
      $$`.execute(db);
    await sql`CREATE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE ON audit_log FOR EACH ROW EXECUTE FUNCTION audit_log_append_only()`.execute(db);
    await sql`CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log FOR EACH STATEMENT EXECUTE FUNCTION audit_log_append_only()`.execute(db);
  } else {
    await sql`CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END`.execute(db);
    await sql`
      CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log
      WHEN NOT EXISTS (SELECT 1 FROM audit_purge_window w WHERE OLD.created_at < w.purge_before)
      BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END`.execute(db);
  }

  await db.schema.alterTable('users').addColumn('suspended_at', 'bigint').execute();
  await db.schema.alterTable('sso_sessions').addColumn('address', 'text').execute();
}
