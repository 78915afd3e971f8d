/**
 * The floor of an HTTP exchange at the password login's pace (docs/performance.md, "The login's
 * floor"). bench.ts measures the bare Fastify route (bench/lib/bare-fastify.ts) in a closed loop at
 * full speed, where the load driver is always busy and an answer lands in a socket it is about to
 * read. A password login runs at about a hundredth of that rate, bounded by its argon2id hash: the
 * driver waits idle between answers, and each answer the server writes has to wake it on the other
 * core, which on a virtual machine costs the writer far more than the write. This takes the same
 * route in turns at full speed (`--workers` connections) and at a fixed `--rate` of requests a
 * second (an open loop: the default is the login's three exchanges at the 113 logins a second of
 * the quiet run, bench/results/2026-12-07T0235-production-sqlite.md), with the argon2id verify loop of the login budget in the same rounds, and prints the
 * server's CPU per request of each, and what three exchanges at that pace are of one hash. Of the
 * hash it also gives the kernel's share and the minor page faults a verification takes, which depend
 * on the host's transparent huge pages (docs/performance.md, "The hash and the host's huge pages";
 * the machine line says the mode). It prints its table and writes it to
 * bench/results/<date>T<hhmm>-floor.md. Run it with
 *
 *   npm run bench:floor [-- --rate 340] [--seconds 5] [--rounds 5] [--workers 16]
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { median } from './lib/budgets.ts';
import { argon2Verify, bareFastify, type Ceiling } from './lib/ceilings.ts';
import { positiveNumber, runMain, say } from './lib/cli.ts';
import { closedLoop, openLoop, type LoadResult } from './lib/load.ts';
import { describeMachine, machineLine } from './lib/machine.ts';
import { markdownTable } from './lib/report.ts';
import { cpuPerOp } from './lib/thread-cpu.ts';

const { values: args } = parseArgs({
  options: {
    rate: { type: 'string', default: '340' },
    seconds: { type: 'string', default: '5' },
    rounds: { type: 'string', default: '5' },
    workers: { type: 'string', default: '16' },
    /** The bare route's body: a token response's size, as bench.ts sends. */
    bytes: { type: 'string', default: '600' },
    out: { type: 'string', default: new URL('./results/', import.meta.url).pathname },
  },
});

/** The exchanges of one password login: the login step, the authorize POST and the code exchange (bench/lib/flows.ts). */
const EXCHANGES_PER_LOGIN = 3;

/**
 * A stretch of load on `source`: its CPU µs per successful request (its server's threads, or the
 * driver's own for the argon2id loop), and, of this process (the driver, where the argon2id loop
 * runs), the kernel's share of its CPU and its minor page faults per request.
 */
async function cpuPerRequest(source: Ceiling, load: (next: Ceiling['next']) => Promise<LoadResult>): Promise<{ us: number; kernelShare: number; faults: number }> {
  const before = source.cpu();
  const usage = process.resourceUsage();
  const result = await load(source.next);
  const after = source.cpu();
  const used = process.resourceUsage();
  const ok = result.recorder.summary().find((s) => s.op !== 'all');
  const done = ok?.ok ?? 0;
  if (done === 0) throw new Error('no request answered');
  const c = cpuPerOp(before, after, done);
  const [user, system] = [used.userCPUTime - usage.userCPUTime, used.systemCPUTime - usage.systemCPUTime];
  return { us: c.mainUs + c.otherUs, kernelShare: system / (user + system || 1), faults: (used.minorPageFault - usage.minorPageFault) / done };
}

async function main(): Promise<number> {
  const rate = positiveNumber('rate', args.rate);
  const durationMs = positiveNumber('seconds', args.seconds) * 1000;
  const rounds = positiveNumber('rounds', args.rounds);
  const workers = positiveNumber('workers', args.workers);
  const bare = await bareFastify({ bytes: positiveNumber('bytes', args.bytes), workers });
  const argon2 = await argon2Verify();
  const figures = { full: [] as number[], paced: [] as number[], hash: [] as number[], kernel: [] as number[], faults: [] as number[] };
  const machine = describeMachine();
  const roundLines: string[] = [];
  say(`machine: ${machineLine(machine)}`);
  try {
    // A warm-up stretch of each, not counted: the JIT and the connections.
    await closedLoop({ durationMs: 1000, workers, next: bare.next });
    for (let round = 1; round <= rounds; round++) {
      const full = (await cpuPerRequest(bare, (next) => closedLoop({ durationMs, workers, next }))).us;
      const paced = (await cpuPerRequest(bare, (next) => openLoop({ durationMs, rate, next }))).us;
      const verification = await cpuPerRequest(argon2, (next) => closedLoop({ durationMs, workers, next }));
      figures.full.push(full);
      figures.paced.push(paced);
      figures.hash.push(verification.us);
      figures.kernel.push(verification.kernelShare);
      figures.faults.push(verification.faults);
      roundLines.push(
        `round ${round}: bare route ${full.toFixed(0)} µs at full speed, ${paced.toFixed(0)} µs at ${rate}/s; one argon2id verification ${verification.us.toFixed(0)} µs ` +
          `(the kernel ${(100 * verification.kernelShare).toFixed(0)}%, ${verification.faults.toFixed(0)} minor page faults)`,
      );
      say(roundLines.at(-1) as string);
    }
  } finally {
    await bare.stop();
    await argon2.stop();
  }
  const [full, paced, hash, kernel, faults] = [median(figures.full), median(figures.paced), median(figures.hash), median(figures.kernel), median(figures.faults)];
  const login = EXCHANGES_PER_LOGIN * paced;
  const text = [
    `# The floor of an exchange at the login's pace, and one argon2id verification, ${machine.date.slice(0, 16)} UTC`,
    '',
    `Machine: ${machineLine(machine)}.`,
    `Run: \`npm run bench:floor\` (bench/floor.ts): the bare Fastify route in a closed loop of ${workers} connections and in an open loop at ${rate} requests a second, and the argon2id verify loop of the login budget in this process, ${rounds} rounds of ${durationMs / 1000} s each.`,
    '',
    ...roundLines.map((l) => `- ${l}`),
    '',
    markdownTable(
      ['measured (median of the rounds)', 'CPU per request', 'of one argon2id verification'],
      [
        [`bare Fastify route, closed loop of ${workers} (bench.ts's floor)`, `${full.toFixed(0)} µs`, `${((100 * full) / hash).toFixed(1)}%`],
        [`bare Fastify route, paced at ${rate} requests/s`, `${paced.toFixed(0)} µs`, `${((100 * paced) / hash).toFixed(1)}%`],
        [`${EXCHANGES_PER_LOGIN} such exchanges: a password login's HTTP floor`, `${login.toFixed(0)} µs`, `${((100 * login) / hash).toFixed(1)}%`],
        ['one argon2id verification (the login budget\'s unit)', `${hash.toFixed(0)} µs`, '100%'],
      ],
    ),
    '',
    `Of one argon2id verification, the kernel took ${(100 * kernel).toFixed(0)}% (mapping and zeroing its 19 MiB), in ${faults.toFixed(0)} minor page faults (medians of the rounds).`,
    '',
  ].join('\n');
  say(`\n${text}`);
  mkdirSync(args.out, { recursive: true });
  const file = `${args.out}${machine.date.slice(0, 16).replace(':', '')}-floor.md`;
  writeFileSync(file, text);
  say(`written: ${file}`);
  return 0;
}

runMain(main);
