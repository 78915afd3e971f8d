import { readdirSync, readFileSync } from 'node:fs';

/**
 * The CPU time the server process has used, its main thread (the event loop that answers requests)
 * apart from every other thread (worker threads, libuv's pool, V8's helpers), from
 * /proc/<pid>/task/<tid>/stat (utime + stime, in clock ticks of USER_HZ, 100 on Linux); with the
 * PostgreSQL server's processes on this machine (every process named `postgres`: its backends, the
 * WAL writer, the checkpointer) and the load driver's own process (this one), which share its cores.
 * A thread that ended between two readings takes its time with it: read around a stretch of load in
 * which the server's threads live on.
 */
export interface ThreadCpu {
  mainMs: number;
  otherMs: number;
  databaseMs: number;
  driverMs: number;
}

const TICK_MS = 10;

const ticksOf = (stat: string): number => {
  // The fields after the command name, which is in parentheses and may hold spaces: utime and stime are the 14th and 15th of the line.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]);
};

/** The CPU time of every process named `postgres` (none on a SQLite run, or where PostgreSQL runs elsewhere). */
function postgresMs(): number {
  let ticks = 0;
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')) === 'postgres') ticks += ticksOf(stat);
    } catch {
      // ended meanwhile
    }
  }
  return ticks * TICK_MS;
}

export function threadCpu(pid: number): ThreadCpu {
  let main = 0;
  let other = 0;
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    let ticks: number;
    try {
      ticks = ticksOf(readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8'));
    } catch {
      continue; // ended meanwhile
    }
    if (tid === String(pid)) main += ticks;
    else other += ticks;
  }
  const driver = process.cpuUsage();
  return { mainMs: main * TICK_MS, otherMs: other * TICK_MS, databaseMs: postgresMs(), driverMs: (driver.user + driver.system) / 1000 };
}

export interface CpuPerOp {
  mainUs: number;
  otherUs: number;
  databaseUs: number;
  driverUs: number;
}

/** CPU µs per operation between two readings: the server's main thread, its other threads, PostgreSQL, the driver. */
export const cpuPerOp = (before: ThreadCpu, after: ThreadCpu, ops: number): CpuPerOp => ({
  mainUs: ((after.mainMs - before.mainMs) * 1000) / ops,
  otherUs: ((after.otherMs - before.otherMs) * 1000) / ops,
  databaseUs: ((after.databaseMs - before.databaseMs) * 1000) / ops,
  driverUs: ((after.driverMs - before.driverMs) * 1000) / ops,
});
