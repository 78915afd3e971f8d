import { ConfigError, loadConfig } from './config.ts';
import { openDatabase } from './db/database.ts';
import { migrateToLatest } from './db/migrations.ts';

/**
 * `npm run db:migrate` (docs/operations.md, "Upgrading"): applies the pending migrations to the
 * database of DATABASE_URL and exits, 0 when they are applied or none was pending, 1 with one line
 * on stderr when one fails (each migration is forward-only, db/migrations.ts). Run before the first
 * node of a new release starts; a node also migrates at its start, which then finds nothing to do.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  // A migration may rebuild an index of a large table: PG_STATEMENT_TIMEOUT_MS bounds the service's statements, not these.
  const db = openDatabase(config.databaseUrl, { postgres: { ...config.postgresPool, statementTimeoutMs: 0 } });
  try {
    const applied = await migrateToLatest(db.kysely);
    process.stdout.write(applied.length === 0 ? 'db:migrate: the schema is current, nothing to apply\n' : `db:migrate: applied ${applied.join(', ')}\n`);
  } finally {
    await db.close();
  }
}

main().catch((e: unknown) => {
  const message = e instanceof ConfigError ? e.message : `db:migrate failed: ${e instanceof Error ? e.message : String(e)}`;
  console.error(message.replace(/\s*\n\s*/g, ' '));
  process.exit(1);
});
