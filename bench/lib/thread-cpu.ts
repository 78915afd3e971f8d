import { readdirSync, readFileSync } from 'node:fs';

/**
 * The CPU time the server process has used, its main thread (the event loop that answers requests)
 * apart from every other thread (worker threads, libuv's pool, V8's helpers), from
 * /proc/<pid>/task/<tid>/stat (utime + stime, in clock ticks of USER_HZ, 100 on Linux); with the
 * PostgreSQL backends of its database on this machine (the processes whose title names that
 * database: its connections, and an autovacuum worker on it) and the load driver's own process (this
 * one), which share its cores. Only the database's own backends: the PostgreSQL server is shared
 * with the test suites of other work on the machine, whose backends, and the WAL writer and
 * checkpointer serving them all, would count their CPU as the server's.
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

/**
 * Whether a PostgreSQL process works for `database`: a backend's title is `postgres: <user> <database>
 * <host(port)> <state>`, an autovacuum worker's `postgres: autovacuum worker <database>`.
 */
export const servesDatabase = (title: string, database: string): boolean => title.startsWith('postgres: ') && title.split(' ').includes(database);

/**
 * Whether a PostgreSQL process is the server's WAL writer (`postgres: walwriter`, or with the
 * cluster's name as Debian starts it, `postgres: 15/main: walwriter`). It writes and flushes the WAL
 * of every database of the server: what a commit that does not wait for the disk leaves to it.
 */
export const isWalWriter = (title: string): boolean => title.startsWith('postgres: ') && title.trim().endsWith(': walwriter');

/** The CPU time of the PostgreSQL processes on this machine whose title `matches`. */
function postgresMs(matches: (title: string) => boolean): number {
  let ticks = 0;
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')) !== 'postgres') continue;
      if (matches(readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim())) ticks += ticksOf(stat);
    } catch {
      // ended meanwhile
    }
  }
  return ticks * TICK_MS;
}

/**
 * The CPU time of this machine's PostgreSQL WAL writer: shared by every database of the server, so
 * a figure of it is the server's, whoever else commits meanwhile (bench/pg-floor.ts reports it apart).
 */
export const walWriterMs = (): number => postgresMs(isWalWriter);

/** The PostgreSQL database a server's DATABASE_URL names (undefined for a SQLite file). */
export function postgresDatabase(databaseUrl: string): string | undefined {
  if (!/^postgres(ql)?:/.test(databaseUrl)) return undefined;
  return decodeURIComponent(new URL(databaseUrl).pathname.slice(1)) || undefined;
}

/**
 * The CPU of process `pid` by thread, of the PostgreSQL backends of `database` (none without one: a
 * SQLite server, the bare route, node-oidc-provider) and of this process.
 */
export function threadCpu(pid: number, database?: string): ThreadCpu {
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
  return { mainMs: main * TICK_MS, otherMs: other * TICK_MS, databaseMs: database ? postgresMs((title) => servesDatabase(title, database)) : 0, driverMs: (driver.user + driver.system) / 1000 };
}

/**
 * The load driver's own CPU as the side that serves (its `main`, all its threads): the ceilings that
 * run in it, the argon2id verify loop on libuv's pool and the ES256 signatures. Microseconds from
 * the kernel's accounting (process.cpuUsage), finer than the ticks of /proc.
 */
export function driverCpu(): ThreadCpu {
  const driver = process.cpuUsage();
  const ms = (driver.user + driver.system) / 1000;
  return { mainMs: ms, otherMs: 0, databaseMs: 0, driverMs: ms };
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
