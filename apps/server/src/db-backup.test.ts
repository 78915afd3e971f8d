import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { copyFileSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { FastifyInstance } from 'fastify';
import { decodeProtectedHeader } from 'jose';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from './app.ts';
import { loadConfig, REPO_ROOT } from './config.ts';
import { backupDatabase } from './db/backup.ts';
import type { Dialect } from './db/database.ts';
import { freePort, startListeningApp, type ListeningApp } from './test-support/listening-app.ts';
import { waitForMails } from './test-support/mailbox.ts';
import { login, post, refresh } from './test-support/oauth-client.ts';
import { relyingParty, signIn } from './test-support/oidc-kit.ts';
import { newOpenEmail, openBody, OPEN_PASSWORD } from './test-support/signup-bodies.ts';
import { PRODUCTION_ENV } from './test-support/test-app-core.ts';
import { DIALECTS, TEST_PG_URL } from './test-support/test-db.ts';

const run = promisify(execFile);

/** The three keys a restore needs besides the dump (docs/operations.md, "The secrets to keep with a backup"), the tests' own. */
const SECRETS = { LOOKUP_KEY: PRODUCTION_ENV.LOOKUP_KEY, PAIRWISE_KEY: PRODUCTION_ENV.PAIRWISE_KEY, SIGNING_KEY_SECRET: PRODUCTION_ENV.SIGNING_KEY_SECRET };
const OTHER_KEY = 'another-key-of-32-characters-or-more-than-that';
const DEMO_CARD = { user: 'demo.card@example.com', password: 'Demo1234' };
const DEMO_OPEN = { user: 'demo.open@example.com', password: 'Demo1234' };
const SCOPE = 'openid user:read';

/** `npm run db:backup -- …` as an operator runs it, beside the running node: its exit code and stderr. */
async function backupCommand(databaseUrl: string, args: string[]): Promise<{ code: number; stderr: string }> {
  const env = { ...process.env, NODE_ENV: 'test', DATABASE_URL: databaseUrl };
  return run(process.execPath, ['--import', 'tsx', 'apps/server/src/db-backup.ts', ...args], { cwd: REPO_ROOT, env }).then(
    (r) => ({ code: 0, stderr: r.stderr }),
    (e: { code: number; stderr: string }) => ({ code: e.code, stderr: e.stderr }),
  );
}

/** The direct login (SPEC.md section 4): result_code 0 signed in, 200 wrong password, 203 locked. */
const directLogin = async (origin: string, id: string, password: string) =>
  (await post(origin, '/api/auth/login', { json: { id, password, recaptcha_token: 'drill', client_id: 'SIAP009' } })).json?.result_code;

/**
 * Logins of the demo member from `workers` clients at once, each through the whole code flow over
 * HTTP, until stopped: what the nodes serve while a backup is taken.
 */
function loginLoad(origin: string, workers: number) {
  let running = true;
  const done: number[] = [];
  const failures: string[] = [];
  const worker = async () => {
    while (running) {
      try {
        await login(origin, DEMO_CARD.user, DEMO_CARD.password);
        done.push(Date.now());
      } catch (e) {
        failures.push(e instanceof Error ? e.message : String(e));
      }
    }
  };
  const all = Promise.all(Array.from({ length: workers }, worker));
  return {
    done,
    failures,
    stop: async () => {
      running = false;
      await all;
    },
  };
}

/** A node started on a restored database, as production starts one: its own connection, the given keys, listening. */
async function startNode(databaseUrl: string, keys: Record<string, string>): Promise<{ app: FastifyInstance; origin: string }> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const config = loadConfig({ NODE_ENV: 'test', DATABASE_URL: databaseUrl, PUBLIC_ORIGIN: origin, SEED_DEMO: 'false', WEB_DIST: '/nonexistent', SMTP_SINK_PORT: '0', LOGIN_NOTICE: 'false', ...keys });
  const app = await buildApp(config, { logger: false });
  await app.listen({ port, host: '127.0.0.1' });
  return { app, origin };
}

/** The restored PostgreSQL databases and the temporary directories (backups, restored SQLite files), removed after the file's tests. */
const restoredPg: string[] = [];
const tempDirs: string[] = [];
const tempDir = (prefix: string) => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  tempDirs.push(dir);
  return dir;
};
afterAll(async () => {
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
  const admin = new pg.Client({ connectionString: TEST_PG_URL });
  await admin.connect();
  for (const name of restoredPg) await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.end();
});

/** Restores the backup into a new database: a copy of the file (SQLite), or a new database filled by pg_restore. */
async function restore(dialect: Dialect, backup: string, dir: string): Promise<string> {
  if (dialect === 'sqlite') {
    const file = join(dir, 'restored.db');
    copyFileSync(backup, file);
    return `sqlite:${file}`;
  }
  const name = `sso_restore_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: TEST_PG_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  restoredPg.push(name);
  const url = new URL(TEST_PG_URL);
  url.pathname = `/${name}`;
  await run('pg_restore', ['--no-owner', `--dbname=${url.toString()}`, backup]);
  return url.toString();
}

/**
 * The restore drill (docs/operations.md, "Backups and restore"): a backup taken by the command while
 * members log in, restored into a new database on which a new node starts with the same keys and
 * the newest member logs in; and what a restore without the right keys does.
 */
describe.each(DIALECTS)('backup and restore drill (%s)', (dialect) => {
  it('backs up while logins run; a node on the restored database with the same keys signs the newest member in', async () => {
    const dir = tempDir('sso-drill-');
    const backup = join(dir, dialect === 'sqlite' ? 'sso-backup.db' : 'sso-backup.dump');
    const t: ListeningApp = await startListeningApp(dialect, SECRETS);
    // As on a node's own connection (db/sqlite.ts), no commit checkpoints the WAL: the newest rows are
    // in the WAL file alone, which a copy of the database file would miss and the online backup reads.
    if (dialect === 'sqlite') await sql`pragma wal_autocheckpoint = 0`.execute(t.testDb.db.kysely);
    let load: ReturnType<typeof loginLoad> | undefined;
    let before: { kid: string; refreshToken: string; email: string };
    try {
      load = loginLoad(t.origin, 4);
      await expect.poll(() => load?.done.length, { timeout: 30_000 }).toBeGreaterThanOrEqual(4);

      // Right before the backup: a member signs up, signs in at a partner, and another member gets locked.
      const email = newOpenEmail();
      expect((await t.app.inject({ method: 'POST', url: '/api/signup/open', payload: openBody(email) })).statusCode).toBe(200);
      const [mail] = await waitForMails(t.app, email);
      const token = /onetime_token=([\w-]{43})\b/.exec(mail!.text)?.[1];
      expect((await t.app.inject({ method: 'POST', url: '/api/signup/open/otp', payload: { onetime_token: token } })).json().result_code).toBe(0);
      const partner = await signIn(await relyingParty(t.origin, 'SIAP004'), { origin: t.origin, scope: SCOPE, user: email, password: OPEN_PASSWORD });
      before = { kid: decodeProtectedHeader(partner.tokens.id_token!).kid!, refreshToken: (await login(t.origin, email, OPEN_PASSWORD)).refresh_token, email };
      for (let i = 0; i < 10; i++) await directLogin(t.origin, DEMO_OPEN.user, `Wrong-${i}-pass`);
      expect(await directLogin(t.origin, DEMO_OPEN.user, DEMO_OPEN.password)).toBe(203);

      const loginsBefore = load.done.length;
      const started = Date.now();
      const result = await backupCommand(t.testDb.url, [backup]);
      const finished = Date.now();
      expect(result, result.stderr).toMatchObject({ code: 0 });
      expect(result.stderr).toContain(`db:backup: ${dialect} backup written to ${backup}`);
      expect(result.stderr).toMatch(dialect === 'sqlite' ? /integrity_check: ok\n.*users: \d+ rows/s : /pg_restore --list: \d+ tables with data/);
      // Members kept signing in while the command ran, and none failed.
      expect(load.done.filter((at) => at >= started && at <= finished).length).toBeGreaterThan(0);
      await load.stop();
      expect(load.failures).toEqual([]);
      expect(load.done.length).toBeGreaterThan(loginsBefore);
      expect(readdirSync(dir)).toEqual([backup.slice(dir.length + 1)]);
    } finally {
      await load?.stop();
      // The original system is gone: its database is dropped with it.
      await t.close();
    }

    const restoredUrl = await restore(dialect, backup, dir);
    const node = await startNode(restoredUrl, SECRETS);
    try {
      // The member who signed up right before the backup signs in at the partner: the ID token
      // verifies by the restored node's JWK Set (openid-client checks its signature) under the same key.
      const after = await signIn(await relyingParty(node.origin, 'SIAP004'), { origin: node.origin, scope: SCOPE, user: before.email, password: OPEN_PASSWORD });
      expect(after.claims.iss).toBe(node.origin);
      expect(decodeProtectedHeader(after.tokens.id_token!).kid).toBe(before.kid);
      expect(after.tokens.access_token).toBeTruthy();
      // A refresh token issued before the backup refreshes on the restored node; the lock set before it holds.
      const refreshed = await refresh(node.origin, before.refreshToken);
      expect(refreshed.status, refreshed.text).toBe(200);
      expect(await directLogin(node.origin, DEMO_OPEN.user, DEMO_OPEN.password)).toBe(203);
      expect(await directLogin(node.origin, DEMO_CARD.user, DEMO_CARD.password)).toBe(0);
    } finally {
      await node.app.close();
    }

    // Another LOOKUP_KEY: members still sign in by e-mail (the address is stored as it is), but
    // what is found by a keyed digest is lost, such as the lock of an account under attack.
    const otherLookup = await startNode(restoredUrl, { ...SECRETS, LOOKUP_KEY: OTHER_KEY });
    try {
      expect(await directLogin(otherLookup.origin, before.email, OPEN_PASSWORD)).toBe(0);
      expect(await directLogin(otherLookup.origin, DEMO_OPEN.user, DEMO_OPEN.password)).toBe(0);
    } finally {
      await otherLookup.app.close();
    }

    // Another SIGNING_KEY_SECRET: the node refuses to start, saying why, rather than fail every sign-in.
    const refused = await run(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
      cwd: REPO_ROOT,
      env: { ...process.env, NODE_ENV: 'test', PORT: '0', DATABASE_URL: restoredUrl, SEED_DEMO: 'false', SMTP_SINK_PORT: '0', ...SECRETS, SIGNING_KEY_SECRET: OTHER_KEY },
    }).then(
      () => ({ code: 0, stderr: '' }),
      (e: { code: number; stderr: string }) => e,
    );
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/SIGNING_KEY_SECRET does not open the signing key [\w-]{43} in the database: set the secret the keys were made under/);
    expect(refused.stderr).not.toContain(OTHER_KEY);
  }, 180_000);
});

describe('db:backup refusals', () => {
  const dir = tempDir('sso-backup-');
  const source = join(dir, 'sso.db');

  it('refuses an existing destination without --force, the database itself, and a missing destination; each in one line, exit 1', async () => {
    const migrated = await run(process.execPath, ['--import', 'tsx', 'apps/server/src/db-migrate.ts'], { cwd: REPO_ROOT, env: { ...process.env, NODE_ENV: 'test', DATABASE_URL: `sqlite:${source}` } });
    expect(migrated.stdout).toMatch(/^db:migrate: applied /);
    const existing = join(dir, 'existing.db');
    writeFileSync(existing, 'not a backup');
    expect(await backupCommand(`sqlite:${source}`, [existing])).toEqual({ code: 1, stderr: `db:backup failed: ${existing} already exists: choose another destination, or pass --force to replace it\n` });
    expect(await backupCommand(`sqlite:${source}`, [])).toEqual({ code: 1, stderr: 'db:backup failed: usage: npm run db:backup -- DESTINATION [--force]\n' });
    await expect(backupDatabase(`sqlite:${source}`, source, { force: true })).rejects.toThrow(`the destination ${source} is the database itself`);
    await expect(backupDatabase(`sqlite:${join(dir, 'absent.db')}`, join(dir, 'b.db'))).rejects.toThrow(/absent\.db does not exist/);
    // With --force the file is replaced by a checked copy.
    const forced = await backupCommand(`sqlite:${source}`, [existing, '--force']);
    expect(forced.code, forced.stderr).toBe(0);
    expect(forced.stderr).toMatch(/integrity_check: ok\n.*kysely_migration: \d+ rows\n$/s);
    // No partial copy is left beside it.
    expect(readdirSync(dir).filter((f) => f.startsWith('.'))).toEqual([]);
  }, 60_000);

  it('says where the runbook is when pg_dump is not on PATH, and leaves no file behind', async () => {
    const destination = join(dir, 'pg.dump');
    await expect(backupDatabase(`${TEST_PG_URL}`, destination, { path: join(dir, 'no-programs-here') })).rejects.toThrow(
      /^pg_dump was not found on PATH: .* docs\/operations\.md "Backups and restore"/,
    );
    expect(existsSync(destination)).toBe(false);
  });

  it('refuses a dump of a database that is not the service\'s (no users table)', async () => {
    const destination = join(dir, 'other.dump');
    await expect(backupDatabase(TEST_PG_URL, destination)).rejects.toThrow(/the dump holds no data of the users table/);
    expect(readdirSync(dir).filter((f) => f.includes('other.dump'))).toEqual([]);
  }, 60_000);
});
