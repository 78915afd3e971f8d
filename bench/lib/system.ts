import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDb } from '../../apps/server/src/test-support/test-db.ts';
import { startSystem, type RunningSystem } from '../../e2e/support/server.ts';
import { readMemory, type MemoryReading } from './memory.ts';

/**
 * The system under load: the real server process as the e2e journeys start it (startSystem in
 * e2e/support/server.ts, reused as it is), on its own SQLite file or on a fresh PostgreSQL database
 * (createTestDb, dropped at the end), with bench/lib/heap-probe.mjs preloaded so that the heap can
 * be read from outside.
 */
export type DatabaseKind = 'sqlite' | 'postgres';

export interface BenchSystem {
  system: RunningSystem;
  database: DatabaseKind;
  /** RSS (and its peak) from /proc and the heap after a full GC of the server process. */
  memory(): Promise<MemoryReading>;
  stop(): Promise<void>;
}

const PROBE = new URL('./heap-probe.mjs', import.meta.url);

export async function startBenchSystem(database: DatabaseKind, options: { quiet?: boolean } = {}): Promise<BenchSystem> {
  const probeDir = mkdtempSync(join(tmpdir(), 'sso-bench-'));
  const probeFile = join(probeDir, 'heap.json');
  const pgDb = database === 'postgres' ? await createTestDb('postgres') : undefined;
  const env: Record<string, string> = {
    NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import=${PROBE.href}`.trim(),
    BENCH_HEAP_FILE: probeFile,
    ...(pgDb ? { DATABASE_URL: pgDb.url } : {}),
  };
  let system: RunningSystem;
  try {
    system = await startSystem({ env, quiet: options.quiet ?? true });
  } catch (e) {
    await pgDb?.drop();
    throw e;
  }
  return {
    system,
    database,
    memory: () => readMemory(system.pid(), probeFile),
    stop: async () => {
      await system.stop();
      await pgDb?.drop();
      rmSync(probeDir, { recursive: true, force: true });
    },
  };
}
