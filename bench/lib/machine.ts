import { execFileSync } from 'node:child_process';
import { availableParallelism, cpus, loadavg, totalmem } from 'node:os';
import { transparentHugePages } from '@sso/server/test-support/internals';

/** What a recorded result was measured on: numbers mean little without the machine they came from. */
export interface Machine {
  date: string;
  cpuModel: string;
  cores: number;
  memoryGiB: number;
  node: string;
  /**
   * The kernel's transparent huge page mode (`madvise`, `always`, `never`; `unknown` off Linux): with
   * `never`, one argon2id verification costs about 1.4 times its CPU (docs/performance.md, "The hash
   * and the host's huge pages"), and every login figure with it.
   */
  hugePages: string;
  /** 1-minute load average when the run started: other work on the machine skews the numbers. */
  loadAverage: number;
  commit: string;
}

export function describeMachine(): Machine {
  let commit = 'unknown';
  try {
    commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    // not a git checkout
  }
  return {
    date: new Date().toISOString(),
    cpuModel: cpus()[0]?.model.trim() ?? 'unknown',
    cores: availableParallelism(),
    memoryGiB: Math.round((totalmem() / 1024 ** 3) * 10) / 10,
    node: process.version,
    hugePages: transparentHugePages() ?? 'unknown',
    loadAverage: Math.round((loadavg()[0] ?? 0) * 100) / 100,
    commit,
  };
}

export const machineLine = (m: Machine): string =>
  `${m.cpuModel}, ${m.cores} cores, ${m.memoryGiB} GiB, Node ${m.node}, transparent huge pages ${m.hugePages}, load average ${m.loadAverage} at start, commit ${m.commit}`;
