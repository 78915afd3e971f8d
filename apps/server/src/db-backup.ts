import { ConfigError, loadConfig } from './config.ts';
import { backupDatabase, BackupError } from './db/backup.ts';

const USAGE = 'usage: npm run db:backup -- DESTINATION [--force]';

/**
 * `npm run db:backup -- DESTINATION [--force]` (docs/operations.md, "Backups and restore"): copies
 * the database of DATABASE_URL to DESTINATION while the nodes run (db/backup.ts), checks the copy
 * and says what it holds, all on stderr. Exits 0 once the checked copy is in place, 1 with one
 * line otherwise; a file already at DESTINATION is replaced only with --force.
 */
async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const force = args.includes('--force');
  const rest = args.filter((a) => a !== '--force');
  const [destination] = rest;
  if (destination === undefined || rest.length > 1 || destination.startsWith('-')) throw new BackupError(USAGE);
  const config = loadConfig();
  const started = Date.now();
  const report = await backupDatabase(config.databaseUrl, destination, { force });
  const lines = [
    `db:backup: ${report.dialect} backup written to ${report.destination} (${report.bytes} bytes) in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    ...report.checks.map((check) => `db:backup:   ${check}`),
  ];
  process.stderr.write(`${lines.join('\n')}\n`);
}

main().catch((e: unknown) => {
  const message = e instanceof ConfigError ? e.message : `db:backup failed: ${e instanceof Error ? e.message : String(e)}`;
  console.error(message.replace(/\s*\n\s*/g, ' '));
  process.exit(1);
});
