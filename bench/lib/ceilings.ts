import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { verify } from '@node-rs/argon2';
import { hashPassword } from '@sso/server/test-support/internals';
import { httpClient } from './http.ts';
import type { NextJob } from './load.ts';
import { OK, failed } from './stats.ts';
import { driverCpu, threadCpu, type ThreadCpu } from './thread-cpu.ts';

/**
 * The two references measured in the same run as the product, in turns with it (bench.ts): the bare
 * route, the floor of a request's CPU; the argon2id loop, the unit of the login's budget (budgets.ts).
 * Each is a source of jobs for the same closed loop as the product's operations, open until `stop`.
 */
export interface Ceiling {
  next: NextJob;
  /** The CPU of what answers (thread-cpu.ts): the bare route's process, or the driver's own for the argon2id loop. */
  cpu(): ThreadCpu;
  stop(): Promise<void>;
}

const BARE = new URL('./bare-fastify.ts', import.meta.url);

/**
 * A bare Fastify route (bench/lib/bare-fastify.ts, in its own process) answering `bytes` of JSON,
 * over a keep-alive pool of `workers` connections like the product's.
 */
export async function bareFastify(o: { bytes: number; workers: number }): Promise<Ceiling> {
  const child = spawn(process.execPath, ['--import', 'tsx', BARE.pathname, String(o.bytes)], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const first = await new Promise<string>((resolve, reject) => {
      const lines = createInterface({ input: child.stdout });
      lines.once('line', resolve);
      child.once('exit', (code) => reject(new Error(`bare Fastify exited with ${String(code)} before listening`)));
    });
    const { port } = JSON.parse(first) as { port: number };
    const http = httpClient(`http://127.0.0.1:${port}`, o.workers);
    const pid = child.pid as number;
    return {
      cpu: () => threadCpu(pid),
      next: () => ({
        op: 'bare Fastify',
        run: async () => {
          const a = await http.get('/token');
          return a.status === 200 && a.text.length >= o.bytes * 0.9 ? OK : failed(`HTTP ${a.status}`);
        },
      }),
      stop: async () => {
        await http.close();
        child.kill('SIGTERM');
      },
    };
  } catch (e) {
    child.kill('SIGTERM');
    throw e;
  }
}

/**
 * A bare argon2id verify loop with the product's parameters: the hash is made by the server's own
 * hashPassword (apps/server/src/lib/passwords.ts), so it carries its memory, time and
 * parallelism costs, and checked with the same asynchronous verify of @node-rs/argon2 the server
 * calls, which runs on the libuv threadpool. The closed loop keeps as many verifies in flight as it
 * has workers, as that many concurrent logins would keep them in the server. Its CPU per verification
 * is the driver's own (this process: the pool's threads and the loop), the login budget's unit.
 */
export async function argon2Verify(): Promise<Ceiling> {
  const password = 'Bench1234';
  const stored = await hashPassword(password);
  return {
    next: () => ({
      op: 'argon2id verify',
      run: async () => ((await verify(stored, password)) ? OK : failed('verify false')),
    }),
    cpu: driverCpu,
    stop: async () => undefined,
  };
}
