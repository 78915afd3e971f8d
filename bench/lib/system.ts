import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DevMailbox, setLookupKey, startSmtpSink } from '@sso/server/test-support/internals';
import { createTestDb, freePort, ROOT, startSystem, type RunningSystem } from '@sso/server/test-support';
import { readMemory, type MemoryReading } from './memory.ts';
import { startRecaptchaSimulator } from './recaptcha-simulator.ts';

/**
 * The system under load: the real server process as the e2e journeys start it (startSystem of the
 * test harness, apps/server/src/test-support/running-system.ts, reused as it is), on its own SQLite
 * file or on a fresh PostgreSQL database (createTestDb, dropped at the end), with
 * bench/lib/heap-probe.mjs preloaded so that the heap can be read from outside.
 */
export type DatabaseKind = 'sqlite' | 'postgres';

export interface BenchSystem {
  system: RunningSystem;
  database: DatabaseKind;
  /** The secret of each confidential client: `<prefix><client_id>` (config/clients.json's demo ones, or the production run's own). */
  clientSecretPrefix: string;
  /** The file the server's output goes to, when it is kept (the production run). */
  logFile: string | undefined;
  /** RSS (and its peak) from /proc and the heap after a full GC of the server process. */
  memory(): Promise<MemoryReading>;
  stop(): Promise<void>;
}

const PROBE = new URL('./heap-probe.mjs', import.meta.url);

/** The production run's secret of every confidential client, before its client id: never a published demo secret (config.ts refuses those). */
const PRODUCTION_SECRET_PREFIX = 'bench-only-secret-';

export interface BenchSystemOptions {
  quiet?: boolean;
  /**
   * The production build (`npm run build` first) in the configuration docs/operations.md recommends:
   * NODE_ENV=production with its own keys, its request logs (`LOG_LEVEL`, info by default) appended
   * to a file, the simulators of a staging system, a reCAPTCHA siteverify and an SMTP server on this
   * machine, and its own secret for each confidential client.
   */
  production?: boolean;
  /** LOG_LEVEL of the production run: info (its default, a line per request and its answer) or warn (no request logs). */
  logLevel?: 'info' | 'warn';
  /** PostgreSQL: the URL the server connects to instead of its fresh database's (bench/lib/pg-wire-counter.ts puts a relay between them). */
  relayDatabase?: (url: string) => Promise<string>;
  /** Further modules preloaded into the server (NODE_OPTIONS=--import), and their environment. */
  preload?: { modules: URL[]; env: Record<string, string> };
}

/** Every confidential client of config/clients.json with the production run's secret instead of its demo one. */
function productionClientsFile(dir: string): string {
  const clients = JSON.parse(readFileSync(join(ROOT, 'config/clients.json'), 'utf8')) as { client_id: string; secret_sha256?: string }[];
  const own = clients.map((c) => (c.secret_sha256 ? { ...c, secret_sha256: createHash('sha256').update(PRODUCTION_SECRET_PREFIX + c.client_id).digest('hex') } : c));
  const file = join(dir, 'clients.json');
  writeFileSync(file, JSON.stringify(own));
  return file;
}

/**
 * The production runs' LOOKUP_KEY, one for every server of a run and for this process: the seed
 * writes the digests the server looks up (a known browser's device cookie, account/new-device-notice.ts)
 * with it, as the server does. With a key of its own per server, every bench login came from a browser
 * the server did not know and mailed a sign-in notice (10 ms of the event loop per login, 2026-11-28).
 */
const RUN_LOOKUP_KEY = randomBytes(32).toString('hex');

/** What a production start needs beside the system's own (running-system.ts sets the port, origin and database). */
async function productionSide(dir: string, logLevel: string): Promise<{ env: Record<string, string>; logFile: string; stop(): Promise<void> }> {
  const recaptcha = await startRecaptchaSimulator();
  const smtp = await startSmtpSink(new DevMailbox(), await freePort());
  const key = () => randomBytes(32).toString('hex');
  setLookupKey(RUN_LOOKUP_KEY);
  return {
    env: {
      NODE_ENV: 'production',
      LOG_LEVEL: logLevel,
      LOOKUP_KEY: RUN_LOOKUP_KEY,
      PAIRWISE_KEY: key(),
      SIGNING_KEY_SECRET: key(),
      RECAPTCHA_SECRET: 'bench-recaptcha-secret',
      RECAPTCHA_VERIFY_URL: recaptcha.url,
      SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
      ALLOW_SIMULATORS: 'staging',
      CLIENTS_FILE: productionClientsFile(dir),
    },
    logFile: join(dir, 'server.log'),
    stop: async () => {
      await recaptcha.close();
      await smtp.close();
    },
  };
}

export async function startBenchSystem(database: DatabaseKind, options: BenchSystemOptions = {}): Promise<BenchSystem> {
  const probeDir = mkdtempSync(join(tmpdir(), 'sso-bench-'));
  const probeFile = join(probeDir, 'heap.json');
  const pgDb = database === 'postgres' ? await createTestDb('postgres', { durable: true }) : undefined;
  const production = options.production ? await productionSide(probeDir, options.logLevel ?? 'info') : undefined;
  const preloads = [PROBE, ...(options.preload?.modules ?? [])].map((m) => `--import=${m.href}`).join(' ');
  const databaseUrl = pgDb && options.relayDatabase ? await options.relayDatabase(pgDb.url) : pgDb?.url;
  const env: Record<string, string> = {
    NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} ${preloads}`.trim(),
    BENCH_HEAP_FILE: probeFile,
    ...options.preload?.env,
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    ...production?.env,
  };
  let system: RunningSystem;
  try {
    system = await startSystem({ env, quiet: options.quiet ?? true, ...(production ? { build: true, logFile: production.logFile } : {}) });
  } catch (e) {
    await pgDb?.drop();
    await production?.stop();
    throw e;
  }
  return {
    system,
    database,
    clientSecretPrefix: production ? PRODUCTION_SECRET_PREFIX : 'demo-secret-',
    logFile: production?.logFile,
    memory: () => readMemory(system.pid(), probeFile),
    stop: async () => {
      await system.stop();
      await pgDb?.drop();
      await production?.stop();
      rmSync(probeDir, { recursive: true, force: true });
    },
  };
}
