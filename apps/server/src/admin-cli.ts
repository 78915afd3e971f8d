import { parseArgs } from 'node:util';
import { ConfigError, loadConfig, type Config } from './config.ts';
import { openDatabase, type Db } from './db/database.ts';
import { migrateToLatest } from './db/migrations.ts';
import { AppError } from './lib/app-error.ts';
import { systemClock } from './lib/clock.ts';
import { findUserById, searchUsers } from './modules/account/user-repo.ts';
import { recordAudit } from './modules/audit/audit.ts';
import { setClientEnabled } from './modules/client-admin/client-admin.ts';
import { openClientStore } from './modules/clients/client-store.ts';
import { bootstrapAdmin } from './modules/operators/enrolment-service.ts';
import { HOST_OPERATOR, recordOperatorEvent } from './modules/operators/events.ts';
import { endMemberSessionsBySupport, unlockMember } from './modules/support/member-actions.ts';
import { SupportError, type OperatorAction, type SupportDeps } from './modules/support/support-deps.ts';

/**
 * `npm run admin -- <command>` (docs/operations.md, "Operators"; decision 0032), on the host, with the
 * server's own configuration (DATABASE_URL, PUBLIC_ORIGIN, …) and the database the nodes share: the
 * break-glass commands for when the console itself is unreachable. In dist/: `npm run admin --
 * <command>` there too, or `node server/admin-cli.js <command>`. Each command is a line of COMMANDS;
 * what it does on a member is written to the audit log with the operator (and role) `host`.
 *
 *   bootstrap --email <e-mail> --name <name>
 *       Makes the e-mail's operator an active administrator (a new one, or an existing one re-enabled)
 *       and prints a single-use enrolment link, valid 30 minutes. The first operator is made so, and
 *       so an administrator gets back in when the last one has lost their passkeys.
 *   unlock --member <member id or e-mail> --reason <text> [--ticket <number>]
 *       Clears the member's login lock (ten wrong passwords), as the console's unlock does.
 *   end-sessions --member <member id or e-mail> --reason <text> [--ticket <number>]
 *       Ends every session of the member (partners told by back-channel logout), as the console does.
 *   disable-client --client <client_id> --reason <why>
 *       Disables a partner client as the console does (decision 0031): its sessions, codes and direct
 *       logins end at once; the other nodes follow within CLIENTS_REFRESH_MS. Audited with the
 *       operator `host`.
 */

class UsageError extends Error {}

/** What a command gets: its arguments parsed, the configuration, and the database, migrated. */
interface CommandContext<V> {
  values: V;
  config: Config;
  db: Db;
}

interface Command<V> {
  usage: string;
  /** Parses and checks the arguments before anything opens (a UsageError says what is wrong). */
  parse(args: string[], usage: string): V;
  run(ctx: CommandContext<V>): Promise<void>;
}

const command = <V>(c: Command<V>): Command<unknown> => c as Command<unknown>;

function bootstrapArgs(args: string[], usage: string): { email: string; name: string } {
  const { values } = parseArgs({ args, options: { email: { type: 'string' }, name: { type: 'string' } }, strict: true });
  const email = values.email?.trim() ?? '';
  const name = values.name?.trim() ?? '';
  if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email) || email.length > 254) throw new UsageError(`--email needs an e-mail address\n${usage}`);
  if (name.length === 0 || name.length > 64) throw new UsageError(`--name needs a name of 1 to 64 characters\n${usage}`);
  return { email, name };
}

interface MemberArgs {
  member: string;
  reason: string;
  ticket?: string;
}

/** `--member`, and the reason every action on a member asks for (a ticket number optional). */
function memberArgs(args: string[], usage: string): MemberArgs {
  const { values } = parseArgs({ args, options: { member: { type: 'string' }, reason: { type: 'string' }, ticket: { type: 'string' } }, strict: true });
  const member = values.member?.trim() ?? '';
  const reason = values.reason?.trim() ?? '';
  const ticket = values.ticket?.trim();
  if (member === '' || member.length > 254) throw new UsageError(`--member needs a member id or e-mail address\n${usage}`);
  if (reason === '' || reason.length > 1000) throw new UsageError(`--reason needs a reason of 1 to 1000 characters\n${usage}`);
  if (ticket !== undefined && (ticket === '' || ticket.length > 100)) throw new UsageError(`--ticket needs a ticket number of 1 to 100 characters\n${usage}`);
  return { member, reason, ...(ticket !== undefined ? { ticket } : {}) };
}

/** The support services' deps on the host: no mail is sent by these commands, and no card master asked. */
function hostDeps(ctx: CommandContext<unknown>): SupportDeps {
  const notifier = { send: () => Promise.reject(new Error('the host commands send no mail')) };
  const cardMaster = { cardsByEndingAndBirthday: () => Promise.reject(new Error('the host commands ask no card master')) };
  return { db: ctx.db.kysely, clock: systemClock, issuer: ctx.config.publicOrigin, notifier, cardMaster };
}

/** The member named by id or e-mail (any status); a UsageError when none is. */
async function memberIdOf(ctx: CommandContext<MemberArgs>): Promise<string> {
  const given = ctx.values.member;
  const user = given.includes('@') ? (await searchUsers(ctx.db.kysely, { email: given.normalize('NFKC').toLowerCase() }, 1))[0] : await findUserById(ctx.db.kysely, given);
  if (!user) throw new UsageError(`no member with the id or e-mail ${given}`);
  return user.id;
}

/** The host as the operator: its actions are audited as `host` (docs/operations.md, "Operators"). */
const hostAction = (v: MemberArgs): OperatorAction => ({
  operatorId: HOST_OPERATOR,
  role: HOST_OPERATOR,
  address: 'host',
  requestId: `admin-cli-${process.pid}`,
  reason: v.reason,
  ...(v.ticket !== undefined ? { ticket: v.ticket } : {}),
});

/** What a refusal of the support services means on the host. */
const REFUSALS: Partial<Record<SupportError['refusal'], string>> = {
  not_locked: "the member's login is not locked",
  not_active: 'the member is withdrawn',
  member_not_found: 'no such member',
};

const COMMANDS: Record<string, Command<unknown>> = {
  bootstrap: command({
    usage: 'npm run admin -- bootstrap --email <e-mail> --name <name>',
    parse: bootstrapArgs,
    async run({ values, config, db }) {
      const { operator, created, link } = await bootstrapAdmin({ db: db.kysely, clock: systemClock, issuer: config.publicOrigin }, values);
      await recordOperatorEvent(db.kysely, { event: 'operator.bootstrap', operatorId: HOST_OPERATOR, role: HOST_OPERATOR, targetOperatorId: operator.id, address: 'host', at: systemClock.now() });
      process.stdout.write(
        `${created ? 'administrator created' : 'administrator re-enabled'}: ${operator.email} (${operator.display_name})\n` +
          `enrolment link (single use, valid until ${new Date(link.expiresAt).toISOString()}):\n${link.url}\n`,
      );
    },
  }),
  unlock: command({
    usage: 'npm run admin -- unlock --member <member id or e-mail> --reason <text> [--ticket <number>]',
    parse: memberArgs,
    async run(ctx) {
      const memberId = await memberIdOf(ctx);
      await unlockMember(hostDeps(ctx), hostAction(ctx.values), memberId);
      process.stdout.write(`unlocked: ${memberId}\n`);
    },
  }),
  'end-sessions': command({
    usage: 'npm run admin -- end-sessions --member <member id or e-mail> --reason <text> [--ticket <number>]',
    parse: memberArgs,
    async run(ctx) {
      const memberId = await memberIdOf(ctx);
      const ended = await endMemberSessionsBySupport(hostDeps(ctx), hostAction(ctx.values), memberId);
      process.stdout.write(`sessions ended: ${memberId} (partner sessions ${ended.sessions}, browser sessions ${ended.ssoSessions.length})\n`);
    },
  }),
  'disable-client': command({
    usage: 'npm run admin -- disable-client --client <client_id> --reason <why>',
    parse(args, usage) {
      const { values } = parseArgs({ args, options: { client: { type: 'string' }, reason: { type: 'string' } }, strict: true });
      const clientId = values.client?.trim() ?? '';
      const reason = values.reason?.trim() ?? '';
      if (!/^[A-Za-z0-9_-]{1,64}$/.test(clientId)) throw new UsageError(`--client needs a client_id\n${usage}`);
      if (reason.length === 0 || reason.length > 500) throw new UsageError(`--reason needs a reason of 1 to 500 characters\n${usage}`);
      return { clientId, reason };
    },
    async run({ values: { clientId, reason }, config, db }) {
      const clients = await openClientStore({ db: db.kysely, clock: systemClock, publicOrigin: config.publicOrigin, refreshMs: config.clientsRefreshMs });
      try {
        // The change and its audit row in one transaction (decision 0032).
        const { changed, ended } = await setClientEnabled({ db: db.kysely, clock: systemClock, clients, publicOrigin: config.publicOrigin }, clientId, false, (trx, r) => {
          const detail = { changed: r.changed, sessions: r.ended.sessions, codes: r.ended.codes, direct_logins: r.ended.directLogins };
          return recordAudit(trx, { operatorId: 'host', operatorRole: 'host', action: 'client.disable', clientId, reason, detail }, systemClock.now()).then(() => undefined);
        }).catch((e: unknown) => {
          throw e instanceof AppError ? new Error(`no client is registered as ${clientId}`) : e;
        });
        process.stdout.write(`${changed ? 'client disabled' : 'client was already disabled'}: ${clientId} (sessions ended: ${ended.sessions}, codes: ${ended.codes}, direct logins: ${ended.directLogins})\n`);
      } finally {
        await clients.close();
      }
    },
  }),
};

const USAGE = `usage:\n${Object.values(COMMANDS)
  .map((c) => `  ${c.usage}`)
  .join('\n')}`;

async function main(argv: string[]): Promise<void> {
  const [name, ...rest] = argv;
  const chosen = name === undefined ? undefined : COMMANDS[name];
  if (!chosen) throw new UsageError(USAGE);
  const values = chosen.parse(rest, `usage: ${chosen.usage}`);
  const config = loadConfig();
  const db = openDatabase(config.databaseUrl, { postgres: config.postgresPool });
  try {
    await migrateToLatest(db.kysely);
    await chosen.run({ values, config, db });
  } finally {
    await db.close();
  }
}

main(process.argv.slice(2)).catch((e: unknown) => {
  if (e instanceof SupportError) console.error(`admin refused: ${REFUSALS[e.refusal] ?? e.refusal}`);
  else console.error(e instanceof ConfigError || e instanceof UsageError ? e.message : `admin failed: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(e instanceof UsageError ? 2 : 1);
});
