// Preloaded into the server process by the load tools (NODE_OPTIONS=--import, bench/lib/system.ts):
// on SIGUSR2 it runs a full garbage collection and writes process.memoryUsage() with a sequence
// number to BENCH_HEAP_FILE, so that a reading of the heap means live objects, not GC timing.
// Plain JavaScript: it loads before tsx does. Nothing else in the server changes.
import { renameSync, writeFileSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

const file = process.env.BENCH_HEAP_FILE;
if (file) {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc');
  let seq = 0;
  process.on('SIGUSR2', () => {
    gc();
    writeFileSync(`${file}.tmp`, JSON.stringify({ seq: ++seq, ...process.memoryUsage() }));
    renameSync(`${file}.tmp`, file);
  });
}
