import { existsSync, readFileSync } from 'node:fs';

/**
 * Memory of a process by its pid: resident set (VmRSS) and its peak so far (VmHWM) from
 * /proc/<pid>/status, and, when the process was started with bench/lib/heap-probe.mjs, the V8 heap
 * after a full collection.
 */
export interface MemoryReading {
  rssMiB: number;
  peakRssMiB: number;
  /** V8 heap in use after a full GC; undefined without the heap probe. */
  heapUsedMiB: number | undefined;
  at: number;
}

const MiB = 1024 * 1024;

export function procStatus(pid: number): { rssMiB: number; peakRssMiB: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN);
  return { rssMiB: kib('VmRSS') / 1024, peakRssMiB: kib('VmHWM') / 1024 };
}

const readProbe = (file: string): { seq: number; heapUsed: number } | undefined =>
  existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as { seq: number; heapUsed: number }) : undefined;

/** Asks the probe for a post-GC reading (SIGUSR2) and waits for it; the RSS is read right after it. */
export async function readMemory(pid: number, probeFile: string | undefined): Promise<MemoryReading> {
  let heapUsedMiB: number | undefined;
  if (probeFile) {
    const before = readProbe(probeFile)?.seq ?? 0;
    process.kill(pid, 'SIGUSR2');
    const deadline = Date.now() + 5000;
    for (;;) {
      const now = readProbe(probeFile);
      if (now && now.seq > before) {
        heapUsedMiB = now.heapUsed / MiB;
        break;
      }
      if (Date.now() > deadline) break;
      await new Promise((r) => setTimeout(r, 20));
    }
  }
  return { ...procStatus(pid), heapUsedMiB, at: Date.now() };
}
