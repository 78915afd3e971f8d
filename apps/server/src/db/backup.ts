import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, renameSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { SQLITE_BUSY_TIMEOUT_MS, sqliteDriver } from './sqlite.ts';

/**
 * `npm run db:backup -- DESTINATION` (docs/operations.md, "Backups and restore"): a copy of the
 * database of DATABASE_URL taken while the nodes run and write, checked before it is kept. SQLite:
 * the online backup API; PostgreSQL: `pg_dump --format=custom`, read back by `pg_restore --list`.
 * The copy is written beside the destination and renamed onto it once checked, so that a failed
 * backup never leaves a file that looks like one.
 */

export interface BackupOptions {
  /** Replace a file already at the destination (`--force`). */
  force?: boolean;
  /** The PATH that pg_dump and pg_restore are looked up in (the process's own unless told). */
  path?: string;
}

export interface BackupReport {
  dialect: 'sqlite' | 'postgres';
  destination: string;
  bytes: number;
  /** What the check read back from the copy, one line each (rows of a few tables, the dump's entries). */
  checks: string[];
}

/** A backup that could not be taken or did not pass its check: its message is for the operator, in one line. */
export class BackupError extends Error {}

/** The tables whose rows a SQLite backup's report counts: members, live sessions, signing keys, the schema's version. */
const COUNTED_TABLES = ['users', 'token_families', 'signing_keys', 'oauth_clients', 'kysely_migration'] as const;

export async function backupDatabase(databaseUrl: string, destination: string, options: BackupOptions = {}): Promise<BackupReport> {
  const target = resolve(destination);
  if (existsSync(target) && !options.force) throw new BackupError(`${target} already exists: choose another destination, or pass --force to replace it`);
  if (databaseUrl.startsWith('sqlite:')) return backupSqlite(resolve(databaseUrl.slice('sqlite:'.length)), target);
  return backupPostgres(databaseUrl, target, options.path ?? process.env.PATH ?? '');
}

/** A file beside `target` (the same file system, so that the rename is atomic) that no other backup uses. */
const partialOf = (target: string) => join(dirname(target), `.${basename(target)}.partial-${randomBytes(6).toString('hex')}`);

/** Removes the partial copy whatever happens, and renames it onto the destination once `check` passed. */
async function keepWhenChecked(target: string, write: (partial: string) => Promise<string[]>): Promise<string[]> {
  const partial = partialOf(target);
  try {
    const checks = await write(partial);
    renameSync(partial, target);
    return checks;
  } finally {
    for (const suffix of ['', '-journal', '-wal', '-shm']) rmSync(partial + suffix, { force: true });
  }
}

/**
 * SQLite's online backup (https://www.sqlite.org/backup.html) over a connection of its own. All
 * pages are copied in one step, inside one read transaction: under WAL, readers never block the
 * nodes' writers, and a copy in several steps starts over whenever a node commits between two of
 * them, which under a steady load of logins it never stops doing. The copy is then switched to a
 * rollback journal, so that it is one self-contained file, and checked by `integrity_check`.
 */
async function backupSqlite(source: string, target: string): Promise<BackupReport> {
  if (!existsSync(source)) throw new BackupError(`the database ${source} does not exist (DATABASE_URL)`);
  if (source === target) throw new BackupError(`the destination ${target} is the database itself: choose another file`);
  const checks = await keepWhenChecked(target, async (partial) => {
    const SQLite = sqliteDriver();
    const db = new SQLite(source, { fileMustExist: true, timeout: SQLITE_BUSY_TIMEOUT_MS });
    try {
      await db.backup(partial, { progress: ({ totalPages }) => Math.max(totalPages, 1) });
    } finally {
      db.close();
    }
    return checkSqliteCopy(partial);
  });
  return { dialect: 'sqlite', destination: target, bytes: statSync(target).size, checks };
}

function checkSqliteCopy(file: string): string[] {
  const SQLite = sqliteDriver();
  const copy = new SQLite(file, { fileMustExist: true });
  try {
    copy.pragma('journal_mode = DELETE');
    const integrity = copy.pragma('integrity_check', { simple: false }) as { integrity_check: string }[];
    const problems = integrity.map((r) => r.integrity_check).filter((line) => line !== 'ok');
    if (problems.length > 0) throw new BackupError(`the copy failed SQLite's integrity check: ${problems.slice(0, 3).join('; ')}`);
    const present = new Set((copy.prepare(`select name from sqlite_master where type = 'table'`).all() as { name: string }[]).map((r) => r.name));
    const counted = COUNTED_TABLES.filter((name) => present.has(name)).map((name) => {
      const { n } = copy.prepare(`select count(*) as n from "${name}"`).get() as { n: number };
      return `${name}: ${n} rows`;
    });
    return ['integrity_check: ok', ...counted];
  } finally {
    copy.close();
  }
}

/**
 * The connection settings of a postgres:// URL as libpq's environment, the password included: on
 * pg_dump's command line it would show in every process listing of the machine.
 */
function libpqEnvironment(databaseUrl: string): { url: string; env: Record<string, string> } {
  const url = new URL(databaseUrl);
  const password = decodeURIComponent(url.password);
  url.password = '';
  return { url: url.toString(), env: password ? { PGPASSWORD: password } : {} };
}

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a PostgreSQL client program; a program missing from PATH is a BackupError pointing to the runbook. */
function runTool(program: string, args: string[], env: Record<string, string>, path: string): Promise<Run> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(program, args, { env: { ...process.env, ...env, PATH: path }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('error', (err: NodeJS.ErrnoException) => {
      reject(
        err.code === 'ENOENT'
          ? new BackupError(`${program} was not found on PATH: install PostgreSQL's client programs of the server's major version, or back up as docs/operations.md "Backups and restore" describes`)
          : err,
      );
    });
    child.on('close', (code) => resolvePromise({ code: code ?? 1, stdout, stderr }));
  });
}

const firstLine = (text: string) => text.trim().split('\n')[0] ?? '';

/**
 * `pg_dump --format=custom` (compressed, restored table by table by pg_restore, in parallel with
 * --jobs), one consistent snapshot of the database taken in a repeatable-read transaction that
 * blocks no node; then `pg_restore --list` reads the archive's table of contents back.
 */
async function backupPostgres(databaseUrl: string, target: string, path: string): Promise<BackupReport> {
  const { url, env } = libpqEnvironment(databaseUrl);
  const checks = await keepWhenChecked(target, async (partial) => {
    const dump = await runTool('pg_dump', ['--format=custom', '--no-owner', `--file=${partial}`, `--dbname=${url}`], env, path);
    if (dump.code !== 0) throw new BackupError(`pg_dump failed (exit ${dump.code}): ${firstLine(dump.stderr)}`);
    const list = await runTool('pg_restore', ['--list', partial], env, path);
    if (list.code !== 0) throw new BackupError(`pg_restore --list cannot read the dump (exit ${list.code}): ${firstLine(list.stderr)}`);
    const tables = list.stdout.split('\n').filter((line) => / TABLE DATA /.test(line));
    if (!tables.some((line) => / TABLE DATA \S+ users /.test(line))) throw new BackupError('the dump holds no data of the users table: is DATABASE_URL the service\'s database?');
    return [`pg_restore --list: ${tables.length} tables with data`];
  });
  return { dialect: 'postgres', destination: target, bytes: statSync(target).size, checks };
}
