import { readdirSync, readFileSync } from 'node:fs';

/**
 * The CPU time a process has used, its main thread (the event loop that answers requests) apart from
 * every other thread (worker threads, libuv's pool, V8's helpers), from /proc/<pid>/task/<tid>/stat
 * (utime + stime, in clock ticks of USER_HZ, 100 on Linux). A thread that ended between two readings
 * takes its time with it: read around a stretch of load in which the server's threads live on.
 */
export interface ThreadCpu {
  mainMs: number;
  otherMs: number;
}

const TICK_MS = 10;

const ticksOf = (stat: string): number => {
  // The fields after the command name, which is in parentheses and may hold spaces: utime and stime are the 14th and 15th of the line.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]);
};

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
  return { mainMs: main * TICK_MS, otherMs: other * TICK_MS };
}

/** CPU µs per operation between two readings: the main thread's and the other threads'. */
export const cpuPerOp = (before: ThreadCpu, after: ThreadCpu, ops: number) => ({
  mainUs: ((after.mainMs - before.mainMs) * 1000) / ops,
  otherUs: ((after.otherMs - before.otherMs) * 1000) / ops,
});
