// Preloaded into the server process by bench/profile.ts (NODE_OPTIONS=--import, as heap-probe.mjs is):
// SIGTTIN starts a CPU profile of the main thread (node:inspector, a sample asked for every 100 µs) and
// writes BENCH_CPU_PROFILE.started once it runs, SIGTTOU stops it and writes it to BENCH_CPU_PROFILE, so
// that the profile holds the stretch of load alone, not the start, the seeding and the warm-up. The
// profiler's start takes the main thread for about a tenth of a second (V8 names every compiled
// function for it): profile.ts waits for the file before it starts the load. Plain JavaScript: it
// loads before tsx does. Nothing else changes.
import { writeFileSync, renameSync } from 'node:fs';
import { Session } from 'node:inspector';

const file = process.env.BENCH_CPU_PROFILE;
if (file) {
  const session = new Session();
  session.connect();
  const post = (method, params) => new Promise((resolve, reject) => session.post(method, params, (e, r) => (e ? reject(e) : resolve(r))));
  process.on('SIGTTIN', () => {
    void post('Profiler.enable')
      .then(() => post('Profiler.setSamplingInterval', { interval: 100 }))
      .then(() => post('Profiler.start'))
      .then(() => writeFileSync(`${file}.started`, ''));
  });
  process.on('SIGTTOU', () => {
    void post('Profiler.stop').then(({ profile }) => {
      writeFileSync(`${file}.tmp`, JSON.stringify(profile));
      renameSync(`${file}.tmp`, file);
    });
  });
}
