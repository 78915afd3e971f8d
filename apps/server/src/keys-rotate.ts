import { ConfigError, loadConfig } from './config.ts';
import { openDatabase } from './db/database.ts';
import { migrateToLatest } from './db/migrations.ts';
import { systemClock } from './lib/clock.ts';
import { ensureSigningKey, rotateSigningKey, SIGNING_KEYS } from './modules/oidc/signing-keys.ts';

/**
 * `npm run keys:rotate` (docs/operations.md, "Signing keys"; decisions 0025 and 0034): a new signing
 * key of each algorithm, published at once and signing SIGNING_KEYS.activationDelayMs later; the current one of each signs until
 * then and stays published until every token it signed has expired. It reads the server's own
 * configuration (DATABASE_URL, SIGNING_KEY_SECRET, …) and writes the database the nodes share: they
 * take the key up by themselves, nothing restarts.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  const db = openDatabase(config.databaseUrl, { postgres: config.postgresPool });
  try {
    await migrateToLatest(db.kysely);
    const deps = { db: db.kysely, clock: systemClock, secret: config.signingKeySecret };
    // The secret must open the current key before a new one is sealed under it.
    await ensureSigningKey(deps);
    const rotated = await rotateSigningKey(deps);
    process.stdout.write(
      `signing keys ${rotated.kids.join(', ')} published; they sign from ${new Date(rotated.activeFrom).toISOString()} ` +
        `(in ${SIGNING_KEYS.activationDelayMs / 60_000} minutes). ` +
        `${rotated.retiredKids.length > 0 ? `${rotated.retiredKids.join(', ')} sign until then and stay published ${SIGNING_KEYS.retentionMs / 60_000} minutes more.` : ''}\n`,
    );
  } finally {
    await db.close();
  }
}

main().catch((e: unknown) => {
  console.error(e instanceof ConfigError ? e.message : `keys:rotate failed: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
});
