import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from './config.ts';
import { openDatabase } from './db/database.ts';
import { migrateToLatest } from './db/migrations.ts';
import { AppError } from './lib/app-error.ts';
import { systemClock } from './lib/clock.ts';
import { recordAudit } from './modules/audit/audit.ts';
import { setClientEnabled } from './modules/clients/client-admin.ts';
import { openClientStore } from './modules/clients/client-store.ts';
import { bootstrapAdmin } from './modules/operators/enrolment-service.ts';
import { recordOperatorEvent } from './modules/operators/events.ts';

/**
 * `npm run admin -- <command>` (docs/operations.md, "Operators"; decision 0032), on the host, with the
 * server's own configuration (DATABASE_URL, PUBLIC_ORIGIN, …) and the database the nodes share. In
 * dist/: `npm run admin -- <command>` there too, or `node server/admin-cli.js <command>`.
 *
 *   bootstrap --email <e-mail> --name <name>
 *       Makes the e-mail's operator an active administrator (a new one, or an existing one re-enabled)
 *       and prints a single-use enrolment link, valid 30 minutes. The first operator is made so, and
 *       so an administrator gets back in when the last one has lost their passkeys.
 *
 *   disable-client --client <client_id> --reason <why>
 *       Disables a partner client as the console does (decision 0031): its sessions, codes and direct
 *       logins end at once; the other nodes follow within CLIENTS_REFRESH_MS. Audited with the
 *       operator `host`.
 */
const USAGE = 'usage: npm run admin -- bootstrap --email <e-mail> --name <name>\n       npm run admin -- disable-client --client <client_id> --reason <why>';

class UsageError extends Error {}

function bootstrapArgs(args: string[]): { email: string; name: string } {
  const { values } = parseArgs({ args, options: { email: { type: 'string' }, name: { type: 'string' } }, strict: true });
  const email = values.email?.trim() ?? '';
  const name = values.name?.trim() ?? '';
  if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email) || email.length > 254) throw new UsageError(`--email needs an e-mail address\n${USAGE}`);
  if (name.length === 0 || name.length > 64) throw new UsageError(`--name needs a name of 1 to 64 characters\n${USAGE}`);
  return { email, name };
}

/** disable-client: the client disabled and its tokens ended, one audit row by the operator `host`. */
async function disableClientCommand(args: string[]): Promise<void> {
  const { values } = parseArgs({ args, options: { client: { type: 'string' }, reason: { type: 'string' } }, strict: true });
  const clientId = values.client?.trim() ?? '';
  const reason = values.reason?.trim() ?? '';
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(clientId)) throw new UsageError(`--client needs a client_id\n${USAGE}`);
  if (reason.length === 0 || reason.length > 500) throw new UsageError(`--reason needs a reason of 1 to 500 characters\n${USAGE}`);
  const config = loadConfig();
  const db = openDatabase(config.databaseUrl);
  try {
    await migrateToLatest(db.kysely);
    const clients = await openClientStore({ db: db.kysely, clock: systemClock, publicOrigin: config.publicOrigin, refreshMs: config.clientsRefreshMs });
    try {
      const { changed, ended } = await setClientEnabled({ db: db.kysely, clock: systemClock, clients, publicOrigin: config.publicOrigin }, clientId, false).catch((e: unknown) => {
        throw e instanceof AppError ? new Error(`no client is registered as ${clientId}`) : e;
      });
      const detail = { changed, sessions: ended.sessions, codes: ended.codes, direct_logins: ended.directLogins };
      await recordAudit(db.kysely, { operatorId: 'host', operatorRole: 'host', action: 'client.disable', clientId, reason, detail }, systemClock.now());
      process.stdout.write(`${changed ? 'client disabled' : 'client was already disabled'}: ${clientId} (sessions ended: ${ended.sessions}, codes: ${ended.codes}, direct logins: ${ended.directLogins})\n`);
    } finally {
      await clients.close();
    }
  } finally {
    await db.close();
  }
}

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  if (command === 'disable-client') return disableClientCommand(rest);
  if (command !== 'bootstrap') throw new UsageError(USAGE);
  const input = bootstrapArgs(rest);
  const config = loadConfig();
  const db = openDatabase(config.databaseUrl);
  try {
    await migrateToLatest(db.kysely);
    const { operator, created, link } = await bootstrapAdmin({ db: db.kysely, clock: systemClock, issuer: config.publicOrigin }, input);
    const log = { info: (object: Record<string, unknown>, message: string) => process.stderr.write(`${message} ${JSON.stringify(object)}\n`) };
    recordOperatorEvent(log, { event: 'operator_bootstrap', operatorId: null, role: null, targetOperatorId: operator.id, at: systemClock.now() });
    process.stdout.write(
      `${created ? 'administrator created' : 'administrator re-enabled'}: ${operator.email} (${operator.display_name})\n` +
        `enrolment link (single use, valid until ${new Date(link.expiresAt).toISOString()}):\n${link.url}\n`,
    );
  } finally {
    await db.close();
  }
}

main(process.argv.slice(2)).catch((e: unknown) => {
  console.error(e instanceof ConfigError || e instanceof UsageError ? e.message : `admin failed: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(e instanceof UsageError ? 2 : 1);
});
