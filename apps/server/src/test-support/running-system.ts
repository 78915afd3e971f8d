import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from './listening-app.ts';

/** The repository's root, with a trailing slash: where `npm start` runs. */
export const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

export interface RunningSystem {
  origin: string;
  port: number;
  /** The server process's pid (for /proc readings); it changes with `restart`. */
  pid(): number;
  /** DATABASE_URL of this system: its own SQLite file unless one was given. */
  databaseUrl: string;
  /** Kills the process at once (SIGKILL: no shutdown hook runs), as a crash would. */
  crash(): Promise<void>;
  /** Starts the process again on the same port and database (after `crash`, or stops it first). */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

export interface SystemOptions {
  /** Extra environment variables, such as DATABASE_URL=postgres://… or SMTP_URL. */
  env?: Record<string, string>;
  /** Inherit the server's output (default) or drop it. */
  quiet?: boolean;
  /** Append the server's output to this file instead (its request logs, as a log collector would take them). */
  logFile?: string;
  /**
   * Run the production build (`dist/server/main.js`, `npm run build`) as docs/operations.md runs it,
   * instead of the sources under tsx. Its configuration is the caller's (`env`: NODE_ENV=production
   * and the secrets it requires).
   */
  build?: boolean;
}

const exited = (child: ChildProcess) => (child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((r) => child.once('exit', r)));

async function waitHealthy(origin: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      const res = await fetch(`${origin}/api/health`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error('server did not start within 60 s');
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * Starts the whole system as `npm start` does (one Node process serving the built SPA and the API)
 * on a free port with a fresh SQLite database and the demo data, unless `env` names another database.
 */
export async function startSystem(options: SystemOptions = {}): Promise<RunningSystem> {
  const dir = mkdtempSync(join(tmpdir(), 'sso-e2e-'));
  const environment = (port: number) => ({
    ...process.env,
    NODE_ENV: 'development',
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_ORIGIN: `http://localhost:${port}`,
    DATABASE_URL: `sqlite:${join(dir, 'sso.db')}`,
    LOG_LEVEL: 'warn',
    SMTP_SINK_PORT: '0',
    // The management listener on a free port: several systems run at once (http/management.ts).
    METRICS_PORT: '0',
    ...options.env,
  });
  const spawnServer = (env: NodeJS.ProcessEnv) => {
    const log = options.logFile ? openSync(options.logFile, 'a') : undefined;
    const output = log ?? (options.quiet ? 'ignore' : 'inherit');
    const [args, cwd] = options.build ? [['--enable-source-maps', 'server/main.js'], join(ROOT, 'dist')] : [['--import', 'tsx', 'apps/server/src/main.ts'], ROOT];
    const child = spawn(process.execPath, args, { cwd, env, stdio: ['ignore', output, output] });
    // The child holds its own copy of the file's descriptor.
    if (log !== undefined) closeSync(log);
    return child;
  };
  // A free port can be taken by another process (another system's mail sink on port 0) before the
  // server binds it: a start whose server exits is tried again on another port, at most three times.
  const start = async (attempt: number): Promise<{ port: number; env: ReturnType<typeof environment>; child: ChildProcess }> => {
    const port = await freePort();
    const env = environment(port);
    const child = spawnServer(env);
    try {
      await waitHealthy(`http://localhost:${port}`, child);
      return { port, env, child };
    } catch (e) {
      if (attempt >= 3 || child.exitCode === null) throw e;
      return start(attempt + 1);
    }
  };
  const started = await start(1);
  const { port, env } = started;
  let child = started.child;
  const origin = `http://localhost:${port}`;
  const stopChild = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await exited(child);
    }
  };
  return {
    origin,
    port,
    databaseUrl: env.DATABASE_URL,
    pid: () => child.pid as number,
    crash: async () => {
      child.kill('SIGKILL');
      await exited(child);
    },
    restart: async () => {
      await stopChild();
      child = spawnServer(env);
      await waitHealthy(origin, child);
    },
    stop: async () => {
      await stopChild();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
