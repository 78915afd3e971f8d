/**
 * The soak (docs/soak.md): a mixed member load held for minutes at about 80% of the capacity measured
 * just before, against the real server process, to show that nothing fails, latency stays put and
 * memory does not grow under steady load. Run it with
 *
 *   node --import tsx bench/soak.ts [--minutes 10] [--database sqlite|postgres]
 *
 * It prints a table and rewrites the result section of docs/soak.md (what it does and why: there).
 */
import { parseArgs } from 'node:util';
import { ROOT } from '@sso/server/test-support';
import { databaseKind, positiveNumber, runMain, say } from './lib/cli.ts';
import { httpClient } from './lib/http.ts';
import { closedLoop, openLoop, type LoadResult } from './lib/load.ts';
import { describeMachine, machineLine } from './lib/machine.ts';
import { MemberPool, describeMix, mixedJobs, type Mix } from './lib/members.ts';
import type { MemoryReading } from './lib/memory.ts';
import { errorTable, latencyTable, markdownTable, mib, ms, replaceSection } from './lib/report.ts';
import { seedMembers } from './lib/seed.ts';
import { startBenchSystem } from './lib/system.ts';

/**
 * The mix (docs/soak.md, "The mix"): a member logs in once per session, then the SPA refreshes its
 * tokens, partners introspect them on their own requests and pages read the card list many times.
 * A login costs an argon2id verification (OWASP minimum: 19 MiB, t=2), some 30–100 times a refresh,
 * so 5% of logins already take about half the server's CPU.
 */
const MIX: Mix = { login: 5, refresh: 40, introspect: 35, cards: 20 };
const ORDER = ['login', 'refresh', 'introspect', 'cards'];

const { values: args } = parseArgs({
  options: {
    minutes: { type: 'string', default: '10' },
    database: { type: 'string', default: 'sqlite' },
    members: { type: 'string', default: '1000' },
    workers: { type: 'string', default: '16' },
    'capacity-seconds': { type: 'string', default: '25' },
    load: { type: 'string', default: '0.8' },
    docs: { type: 'string', default: `${ROOT}docs/soak.md` },
    verbose: { type: 'boolean', default: false },
  },
});

const minutes = positiveNumber('minutes', args.minutes);
const members = Math.round(positiveNumber('members', args.members));
const workers = Math.round(positiveNumber('workers', args.workers));
const capacitySeconds = positiveNumber('capacity-seconds', args['capacity-seconds']);
const loadFactor = positiveNumber('load', args.load);
const database = databaseKind(args.database);

const rate = (r: LoadResult) => r.recorder.okCount / (r.durationMs / 1000);
const progress = (elapsedMs: number, rec: LoadResult['recorder']) =>
  say(`  ${(elapsedMs / 1000).toFixed(0)} s: ${rec.okCount} ok, ${rec.errorCount} errors, ${(rec.okCount / (elapsedMs / 1000)).toFixed(1)} ok/s`);

async function main(): Promise<number> {
  const machine = describeMachine();
  say(`soak: ${minutes} min on ${database}, ${members} members, mix ${describeMix(MIX)}\nmachine: ${machineLine(machine)}`);
  const bench = await startBenchSystem(database, { quiet: !args.verbose });
  const http = httpClient(bench.system.origin, Math.max(64, workers));
  try {
    const seeded = await seedMembers({ databaseUrl: bench.system.databaseUrl, origin: bench.system.origin, count: members });
    const pool = new MemberPool(seeded);
    const next = mixedJobs(http, pool, MIX);
    const idle = await bench.memory();
    say(`seeded ${seeded.length} members; server RSS ${mib(idle.rssMiB)}, heap ${mib(idle.heapUsedMiB)}`);

    await closedLoop({ workers, durationMs: 3000, next }); // warm-up: JIT, connections, caches
    say(`capacity: closed loop, ${workers} workers, ${capacitySeconds} s …`);
    const capacity = await closedLoop({ workers, durationMs: capacitySeconds * 1000, next });
    const target = rate(capacity) * loadFactor;
    say(`capacity ${rate(capacity).toFixed(1)} ok/s (p99 ${ms(capacity.recorder.overall.percentile(99))} ms); soak at ${target.toFixed(1)}/s for ${minutes} min …`);

    const start = await bench.memory();
    const soak = await openLoop({ rate: target, durationMs: minutes * 60_000, next, progress, progressEveryMs: minutes >= 2 ? 30_000 : 10_000 });
    const end = await bench.memory();

    const result = renderResult({ machine, capacity, soak, target, idle, start, end, retired: pool.retired });
    say(`\n${result}`);
    replaceSection(args.docs, 'soak-result', result);
    say(`\nwritten to ${args.docs}`);
    return soak.recorder.errorCount === 0 && pool.retired === 0 ? 0 : 1;
  } finally {
    await http.close();
    await bench.stop();
  }
}

interface Run {
  machine: ReturnType<typeof describeMachine>;
  capacity: LoadResult;
  soak: LoadResult;
  target: number;
  idle: MemoryReading;
  start: MemoryReading;
  end: MemoryReading;
  retired: number;
}

function renderResult(r: Run): string {
  const seconds = r.soak.durationMs / 1000;
  const memoryRow = (name: string, m: MemoryReading) => [name, mib(m.rssMiB), mib(m.heapUsedMiB), mib(m.peakRssMiB)];
  return [
    `Run of ${r.machine.date.slice(0, 16).replace('T', ' ')} UTC, ${minutes} min on ${database} with ${members} members.`,
    `Machine: ${machineLine(r.machine)}.`,
    '',
    `- Capacity (closed loop, ${workers} workers, ${capacitySeconds} s): **${rate(r.capacity).toFixed(1)} ok/s**, ` +
      `p50 ${ms(r.capacity.recorder.overall.percentile(50))} ms, p99 ${ms(r.capacity.recorder.overall.percentile(99))} ms, ${r.capacity.recorder.errorCount} errors.`,
    `- Soak (open loop at ${Math.round(loadFactor * 100)}%): target **${r.target.toFixed(1)}/s**, achieved **${rate(r.soak).toFixed(1)} ok/s** ` +
      `over ${seconds.toFixed(0)} s; ${r.soak.started} started, ${r.soak.skipped} not started (no idle member), ` +
      `**${r.soak.recorder.errorCount} errors**, ${r.retired} members retired after a failed login or refresh.`,
    `- Mix: ${describeMix(MIX)}. Latency from the scheduled start; a login is its two requests.`,
    '',
    latencyTable(r.soak.recorder.summary(ORDER), seconds),
    '',
    errorTable(r.soak.recorder.errors),
    '',
    'Server memory (RSS from /proc; heap after a full GC):',
    '',
    markdownTable(['when', 'RSS', 'heap used', 'peak RSS so far'], [memoryRow('after seeding', r.idle), memoryRow('soak start', r.start), memoryRow('soak end', r.end)]),
  ].join('\n');
}

runMain(main);
