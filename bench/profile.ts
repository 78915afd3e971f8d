/**
 * Where a hot path's server CPU goes (docs/performance.md, "How the time was found"): the server
 * started as bench.ts starts it with bench/lib/cpu-probe.mjs preloaded, one operation of flows.ts driven over a
 * closed loop of keep-alive connections, then the profile summed by package and by function. The
 * product's own code is named by its source file (through the build's source map with
 * `--production`). Beside the profile, the server's CPU per operation read from /proc by thread
 * (thread-cpu.ts): the event loop apart from the other threads, where argon2id runs. Run it with
 *
 *   npm run bench:profile -- --operation passwordLogin [--production] [--database sqlite|postgres] [--seconds 20] [--workers 16] [--top 40] [--exclude argon2] [--per-request]
 *
 * The profile covers the measured stretch of load only (the probe starts and stops it by signal). It
 * prints both tables, and keeps the .cpuprofile (it names the file) for a closer look. With
 * `--per-request` the load runs over one connection and the tables are printed for each of the
 * operation's requests as well (`POST /api/auth/login`, …): each sample is given to the request the
 * driver last sent (request-windows.ts), so what the server does after an answer counts for it.
 */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { databaseKind, positiveNumber, runMain, say } from './lib/cli.ts';
import { OPERATIONS, useClientSecrets, type OperationName } from './lib/flows.ts';
import { httpClient } from './lib/http.ts';
import { closedLoop } from './lib/load.ts';
import { MemberPool, mixedJobs } from './lib/members.ts';
import { markdownTable } from './lib/report.ts';
import { markedClient, splitByRequest, type CpuProfile, type ProfileNode, type RequestMark } from './lib/request-windows.ts';
import { seedMembers } from './lib/seed.ts';
import { startBenchSystem } from './lib/system.ts';
import { cpuPerOp, threadCpu } from './lib/thread-cpu.ts';

const { values: args } = parseArgs({
  options: {
    operation: { type: 'string', default: 'passwordLogin' },
    members: { type: 'string', default: '1000' },
    seconds: { type: 'string', default: '20' },
    workers: { type: 'string' },
    database: { type: 'string', default: 'sqlite' },
    production: { type: 'boolean', default: false },
    /** Rows of each table. */
    top: { type: 'string', default: '40' },
    /** Functions left out of the shares (`argon2`: the password hash's native call), by a part of their name. */
    exclude: { type: 'string', default: '' },
    /** The profile split by the operation's requests as well: one connection, so that the server has one request at a time. */
    'per-request': { type: 'boolean', default: false },
  },
});

/** Microseconds of self time by profile node. */
function selfTimes(p: CpuProfile): Map<number, number> {
  const self = new Map<number, number>();
  p.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (p.timeDeltas[i] ?? 0)));
  return self;
}

const maps = new Map<string, SourceMap | undefined>();
/** The source map of a built file, when it has one beside it. */
function sourceMapOf(url: string): SourceMap | undefined {
  if (!maps.has(url)) {
    let map: SourceMap | undefined;
    try {
      map = new SourceMap(JSON.parse(readFileSync(`${fileURLToPath(url)}.map`, 'utf8')) as ConstructorParameters<typeof SourceMap>[0]);
    } catch {
      map = undefined;
    }
    maps.set(url, map);
  }
  return maps.get(url);
}

const PACKAGE = /node_modules\/((?:@[^/]+\/)?[^/]+)/;

/** The package of a frame (`fastify`, `node`, `(product) modules/oauth`), and the function as the tables name it. */
function whereOf(f: ProfileNode['callFrame']): { pkg: string; fn: string } {
  const name = f.functionName || '(anonymous)';
  if (!f.url) return { pkg: name.startsWith('(') ? name : '(native)', fn: name };
  if (f.url.startsWith('node:')) return { pkg: 'node', fn: `${name} ${f.url}` };
  // The product's own code is one bundle in the build: its source map names the file.
  const origin = f.url.startsWith('file:') ? sourceMapOf(f.url)?.findOrigin(f.lineNumber + 1, f.columnNumber + 1) : undefined;
  const mapped = origin && 'fileName' in origin && typeof origin.fileName === 'string' ? origin.fileName : f.url;
  const file = mapped.replace(/^file:\/\//, '');
  const pkg = PACKAGE.exec(file)?.[1];
  if (pkg) return { pkg, fn: `${name} (${pkg})` };
  const source = /(?:apps|packages)\/[^/]+\/src\/(.+)$/.exec(file)?.[1] ?? relative(process.cwd(), file);
  return { pkg: `(product) ${source.includes('/') ? source.slice(0, source.lastIndexOf('/')) : source}`, fn: `${name} ${source}` };
}

/** The profile summed by package and by function, in µs per operation, without the excluded functions. */
function summarise(p: CpuProfile, ops: number, exclude: string[], top: number): string {
  const byPkg = new Map<string, number>();
  const byFn = new Map<string, number>();
  let total = 0;
  let excluded = 0;
  const nodes = new Map(p.nodes.map((n) => [n.id, n]));
  for (const [id, us] of selfTimes(p)) {
    const f = (nodes.get(id) as ProfileNode).callFrame;
    if (f.functionName === '(idle)') continue;
    const { pkg, fn } = whereOf(f);
    if (exclude.some((x) => fn.includes(x))) {
      excluded += us;
      continue;
    }
    total += us;
    byPkg.set(pkg, (byPkg.get(pkg) ?? 0) + us);
    byFn.set(fn, (byFn.get(fn) ?? 0) + us);
  }
  const rows = (m: Map<string, number>) =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([k, us]) => [k, (us / ops).toFixed(1), `${((us / total) * 100).toFixed(1)}%`]);
  return [
    `Sampled on the event loop, without (idle)${exclude.length ? ` and ${exclude.join(', ')} (${(excluded / ops).toFixed(1)} µs/op)` : ''}: ${(total / ops).toFixed(1)} µs per operation.`,
    '',
    markdownTable(['package', 'self µs/op', 'share'], rows(byPkg)),
    '',
    markdownTable(['function', 'self µs/op', 'share'], rows(byFn)),
  ].join('\n');
}

const PROBE = new URL('./lib/cpu-probe.mjs', import.meta.url);

/** Waits until the probe has written `file` (the profile takes a moment after SIGTTOU, its start after SIGTTIN). */
async function waitFor(file: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!existsSync(file)) {
    if (Date.now() > deadline) throw new Error(`no profile at ${file}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function main(): Promise<number> {
  const op = args.operation as OperationName;
  if (!(op in OPERATIONS)) throw new Error(`--operation: ${op} is none of ${Object.keys(OPERATIONS).join(', ')}`);
  const seconds = positiveNumber('seconds', args.seconds);
  const perRequest = args['per-request'];
  const workers = perRequest ? 1 : Math.round(positiveNumber('workers', args.workers ?? '16'));
  if (perRequest && args.workers !== undefined) say('--per-request: one connection, whatever --workers says');
  const file = join(mkdtempSync(join(tmpdir(), 'sso-profile-')), 'server.cpuprofile');
  const before = { NODE_OPTIONS: process.env.NODE_OPTIONS, BENCH_CPU_PROFILE: process.env.BENCH_CPU_PROFILE };
  // Only the server's process: the driver's own environment is back before anything else starts.
  process.env.NODE_OPTIONS = `${before.NODE_OPTIONS ?? ''} --import=${PROBE.href}`.trim();
  process.env.BENCH_CPU_PROFILE = file;
  const bench = await startBenchSystem(databaseKind(args.database), { production: args.production }).finally(() => {
    for (const [k, v] of Object.entries(before)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  });
  const pid = bench.system.pid();
  let ops = 0;
  let cpuLine = '';
  const marks: RequestMark[] = [];
  try {
    useClientSecrets(bench.clientSecretPrefix);
    const members = await seedMembers({ databaseUrl: bench.system.databaseUrl, origin: bench.system.origin, count: Math.round(positiveNumber('members', args.members)) });
    const http = httpClient(bench.system.origin, workers);
    const pool = new MemberPool(members);
    await closedLoop({ workers, durationMs: 2000, next: mixedJobs(http, pool, { [op]: 1 }) });
    say(`${op} on process ${pid} for ${seconds} s`);
    process.kill(pid, 'SIGTTIN');
    // The profiler's own start (cpu-probe.mjs) is neither the operation's CPU nor its profile's.
    await waitFor(`${file}.started`);
    const start = threadCpu(pid);
    const run = await closedLoop({ workers, durationMs: seconds * 1000, next: mixedJobs(perRequest ? markedClient(http, marks) : http, pool, { [op]: 1 }) });
    process.kill(pid, 'SIGTTOU');
    const s = run.recorder.summary().find((x) => x.op === op);
    ops = s ? s.count - s.errors : 0;
    const cpu = cpuPerOp(start, threadCpu(pid), Math.max(1, ops));
    for (const [kind, n] of run.recorder.errors) say(`  error ${kind}: ${n}`);
    cpuLine = `${op}: ${ops} ok in ${seconds} s (${(ops / seconds).toFixed(1)}/s); server CPU per operation from /proc: event loop ${cpu.mainUs.toFixed(0)} µs, other threads ${cpu.otherUs.toFixed(0)} µs, database ${cpu.databaseUs.toFixed(0)} µs; driver ${cpu.driverUs.toFixed(0)} µs`;
    await http.close();
    await waitFor(file);
  } finally {
    await bench.stop();
  }
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  // The first sample's delta is the time from the profiler's start to it: the start itself (about a
  // tenth of a second in `post`, cpu-probe.mjs), before the measured load. Its timestamp stays.
  profile.startTime += profile.timeDeltas[0] ?? 0;
  profile.timeDeltas[0] = 0;
  const exclude = args.exclude ? args.exclude.split(',') : [];
  say(`\n${cpuLine}\nprofile of the measured stretch: ${file}\n`);
  const top = Math.round(positiveNumber('top', args.top));
  say(summarise(profile, Math.max(1, ops), exclude, top));
  if (perRequest) {
    const split = splitByRequest(profile, marks);
    say(`\nBy request: ${split.sampled} samples other than (idle), ${split.before} of them before the first request.`);
    for (const [label, r] of split.byRequest) say(`\n### ${label}: ${r.requests} requests\n\n${summarise(r.profile, Math.max(1, r.requests), exclude, Math.min(top, 15))}`);
  }
  return 0;
}

if (import.meta.url === `file://${process.argv[1]}`) runMain(main);
