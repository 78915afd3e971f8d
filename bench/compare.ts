/**
 * Two checkouts of the product in turns on this machine (docs/performance.md, "Before and after"):
 * this one and `--against`, another checkout (a `git worktree` of an older commit, with its
 * node_modules and its SPA built), each its own server on its own database (SQLite, or PostgreSQL) with its own load
 * members, seeded by its own code. Each hot path of bench.ts (password login, refresh grant,
 * introspection, /api/user, card list) runs on one server, then the other, in rounds (lib/turns.ts),
 * and the figure is the median of the rounds' ratios, this checkout's rate over the other's, beside the
 * server's CPU per operation of each (thread-cpu.ts), whose ratio is the measure of a change. A ceiling
 * measured minutes apart moves by more than a change is worth on these shared machines; two servers
 * in turns seconds apart do not. Run it with
 *
 *   git worktree add /tmp/before <commit> && (cd /tmp/before && npm ci && npm run build:web)
 *   npm run bench:compare -- --against /tmp/before [--production] [--database sqlite|postgres] [--operations refresh,introspect] [--seconds 6] [--rounds 5] [--workers 16] [--members 1000] [--floor]
 *
 * What the request logs cost (docs/performance.md, "Request logs"): this checkout against itself, the
 * other side's production server without its request lines,
 *
 *   npm run bench:compare -- --against . --production --against-log-level warn --operations introspect,refresh --rounds 9
 *
 * It prints a table and writes it to bench/results/<date>T<hhmm>-compare.md. With `--floor`, each
 * operation of this checkout also takes turns with the bare Fastify route (lib/bare-fastify.ts, the
 * bench's ceiling), whose server CPU per request, measured the same way, is the floor no change of
 * the product's own code can go below: a second table gives both, and their difference.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { databaseKind, positiveNumber, runMain, say } from './lib/cli.ts';
import { useClientSecrets, type Member, type OperationName } from './lib/flows.ts';
import { httpClient, type HttpClient } from './lib/http.ts';
import { describeMachine, machineLine } from './lib/machine.ts';
import { MemberPool, mixedJobs } from './lib/members.ts';
import { errorTable, markdownTable, ms } from './lib/report.ts';
import { seedMembers } from './lib/seed.ts';
import { startBenchSystem, type BenchSystem, type BenchSystemOptions, type DatabaseKind } from './lib/system.ts';
import { ROUNDS, serverUs, takeTurns, type TurnTiming, type Turns } from './lib/turns.ts';
import { postgresDatabase, threadCpu } from './lib/thread-cpu.ts';
import { bareFastify } from './lib/ceilings.ts';

const { values: args } = parseArgs({
  options: {
    against: { type: 'string' },
    members: { type: 'string', default: '1000' },
    seconds: { type: 'string', default: '6' },
    /** Rounds of each operation on each side (lib/turns.ts): more narrow the medians, at 2 × (seconds / 2 + 1) s a round. */
    rounds: { type: 'string', default: String(ROUNDS) },
    workers: { type: 'string', default: '16' },
    database: { type: 'string', default: 'sqlite' },
    /** Some of the operations only, by name (`refresh,introspect`); all of them by default. */
    operations: { type: 'string' },
    /** The share either way within which two figures count as the same. */
    within: { type: 'string', default: '0.05' },
    /** Both sides as production runs them (bench/lib/system.ts): the built dist/, NODE_ENV=production, request logs on. */
    production: { type: 'boolean', default: false },
    /** With --production, the other side's LOG_LEVEL (`warn`: no request lines); both sides' is `info` without it. */
    'against-log-level': { type: 'string' },
    /** Each operation of this checkout in turns with the bare Fastify route too: the floor of its CPU per operation. */
    floor: { type: 'boolean', default: false },
    out: { type: 'string', default: new URL('./results/', import.meta.url).pathname },
  },
});

const OPERATIONS: readonly { op: OperationName; label: string }[] = [
  { op: 'authorize', label: 'login (authorize POST)' },
  { op: 'refresh', label: 'refresh grant' },
  { op: 'introspect', label: 'introspection (SIAP004)' },
  { op: 'user', label: '/api/user' },
  { op: 'cards', label: 'card list' },
];

/**
 * Taken by name only (`--operations passwordLogin,passkeySignIn,refreshOpenid,partnerRefresh`): the whole
 * flows of a sign-in, each request of it in one job, the refresh that signs an ID token, and a partner's
 * refresh with client_secret_basic (the one bench.ts weighs against node-oidc-provider's), which needs
 * `--against` a checkout whose seed.ts seeds the partner's families.
 */
const ON_REQUEST: readonly { op: OperationName; label: string }[] = [
  { op: 'passwordLogin', label: 'SPA login (login step, authorize POST, code exchange)' },
  { op: 'passkeySignIn', label: 'passkey sign-in' },
  { op: 'refreshOpenid', label: 'refresh grant with openid (new ID token)' },
  { op: 'partnerRefresh', label: 'partner refresh grant (SIAP004, client_secret_basic)' },
];

/** An operation of OPERATIONS or ON_REQUEST by its name. */
function operation(name: string): (typeof OPERATIONS)[number] {
  const all = [...OPERATIONS, ...ON_REQUEST];
  const found = all.find((o) => o.op === name);
  if (!found) throw new Error(`--operations: ${name} is none of ${all.map((o) => o.op).join(', ')}`);
  return found;
}

interface Side {
  name: string;
  bench: BenchSystem;
  http: HttpClient;
  pool: MemberPool;
}

/** A checkout's server with its members, seeded by that checkout's own code (its schema is its own). */
async function startSide(name: string, root: string | undefined, database: DatabaseKind, members: number, workers: number, production: boolean, operations: readonly { op: OperationName }[], logLevel?: LogLevel): Promise<Side> {
  const system: { startBenchSystem: typeof startBenchSystem } = root ? await import(pathToFileURL(`${root}/bench/lib/system.ts`).href) : { startBenchSystem };
  const seed: { seedMembers: typeof seedMembers } = root ? await import(pathToFileURL(`${root}/bench/lib/seed.ts`).href) : { seedMembers };
  const bench = await system.startBenchSystem(database, { production, ...(logLevel ? { logLevel } : {}) });
  // Both sides' production runs give each confidential client the same secret (bench/lib/system.ts).
  useClientSecrets(bench.clientSecretPrefix);
  const seeded: Member[] = await seed.seedMembers({ databaseUrl: bench.system.databaseUrl, origin: bench.system.origin, count: members });
  // An older checkout's members hold no partner family: its partner refresh would fail on every member.
  if (operations.some((o) => o.op === 'partnerRefresh') && (seeded[0] as Partial<Member> | undefined)?.partner === undefined) {
    await bench.stop();
    throw new Error(`${name} seeds no partner families (bench/lib/seed.ts): partnerRefresh cannot be compared on it`);
  }
  say(`${name}: ${seeded.length} members on ${bench.system.origin}`);
  return { name, bench, http: httpClient(bench.system.origin, workers), pool: new MemberPool(seeded) };
}

/**
 * Each operation of this checkout in turns with the bare Fastify route answering a token response's
 * size of JSON (lib/bare-fastify.ts in its own process, its CPU read the same way from /proc).
 */
async function againstFloor(side: Side, operations: readonly (typeof OPERATIONS)[number][], errors: Map<string, number>, timing: TurnTiming): Promise<(Turns & { label: string })[]> {
  const bare = await bareFastify({ bytes: FLOOR_BYTES, workers: Math.round(positiveNumber('workers', args.workers)) });
  try {
    const rows: (Turns & { label: string })[] = [];
    for (const { op, label } of operations) {
      const turns = await takeTurns(
        { label: `${label}, this checkout`, next: mixedJobs(side.http, side.pool, { [op]: 1 }), cpu: () => threadCpu(side.bench.system.pid(), postgresDatabase(side.bench.system.databaseUrl)) },
        { label: `bare Fastify route, in turns with ${label}`, next: bare.next, cpu: () => bare.cpu() },
        errors,
        timing,
      );
      rows.push({ ...turns, label });
    }
    return rows;
  } finally {
    await bare.stop();
  }
}

/** The size of the bare route's answer: about a token response's (bench.ts measures it from a refresh). */
const FLOOR_BYTES = 600;

function floorTable(floors: readonly (Turns & { label: string })[]): string {
  return [
    `The floor: each operation of this checkout in turns with the bare Fastify route (a ${FLOOR_BYTES}-byte JSON answer, no work), the server CPU per operation of each (median round), and what this checkout spends above the bare route.`,
    '',
    markdownTable(
      ['operation', 'this checkout µs/op', 'bare route µs/op', 'above the floor µs/op', 'median of the rounds\' CPU ratios (this / bare)', 'CPU rounds'],
      floors.map((f) => [
        f.label,
        serverUs(f.a).toFixed(0),
        serverUs(f.b).toFixed(0),
        (serverUs(f.a) - serverUs(f.b)).toFixed(0),
        (f.cpuRatio ?? Number.NaN).toFixed(2),
        (f.cpuRatios ?? []).map((r) => r.toFixed(2)).join(', '),
      ]),
    ),
  ].join('\n');
}

/** The production server's LOG_LEVELs the bench starts (lib/system.ts). */
type LogLevel = NonNullable<BenchSystemOptions['logLevel']>;

/** `--against-log-level`: info or warn, and only with --production: the bench sets LOG_LEVEL for the production build's servers alone (lib/system.ts). */
function againstLogLevel(value: string | undefined, production: boolean): LogLevel | undefined {
  if (value === undefined) return undefined;
  if (value !== 'info' && value !== 'warn') throw new Error(`--against-log-level: ${value} is neither info nor warn`);
  if (!production) throw new Error('--against-log-level needs --production');
  return value;
}

async function main(): Promise<number> {
  if (!args.against) throw new Error('--against <path of another checkout> is required');
  // A relative path is the caller's: npm runs this script in bench/, and names where it was called in INIT_CWD.
  const against = resolve(process.env.INIT_CWD ?? process.cwd(), args.against);
  const seconds = positiveNumber('seconds', args.seconds);
  const workers = Math.round(positiveNumber('workers', args.workers));
  const members = Math.round(positiveNumber('members', args.members));
  const within = positiveNumber('within', args.within);
  const database = databaseKind(args.database);
  const operations = args.operations ? args.operations.split(',').map((name) => operation(name)) : OPERATIONS;
  const rounds = Math.round(positiveNumber('rounds', args.rounds));
  const theirLogLevel = againstLogLevel(args['against-log-level'], args.production);
  const timing = { workers, durationMs: seconds * 1000, warmupMs: Math.min(2000, (seconds * 1000) / 2), rounds };
  const machine = describeMachine();
  say(`compare: this checkout against ${against}, ${database}, ${members} members each, ${workers} connections, ${seconds} s per operation\nmachine: ${machineLine(machine)}`);

  const ours = await startSide('this checkout', undefined, database, members, workers, args.production, operations);
  let theirs: Side | undefined;
  const errors = new Map<string, number>();
  const compared: (Turns & { label: string })[] = [];
  const floors: (Turns & { label: string })[] = [];
  try {
    theirs = await startSide(against, against, database, members, workers, args.production, operations, theirLogLevel);
    for (const { op, label } of operations) {
      const turns = await takeTurns(
        { label: `${label}, this checkout`, next: mixedJobs(ours.http, ours.pool, { [op]: 1 }), cpu: () => threadCpu(ours.bench.system.pid(), postgresDatabase(ours.bench.system.databaseUrl)) },
        { label: `${label}, ${against}`, next: mixedJobs(theirs.http, theirs.pool, { [op]: 1 }), cpu: () => threadCpu(theirs!.bench.system.pid(), postgresDatabase(theirs!.bench.system.databaseUrl)) },
        errors,
        timing,
      );
      compared.push({ ...turns, label });
    }
    if (args.floor) floors.push(...(await againstFloor(ours, operations, errors, timing)));
  } finally {
    for (const side of [ours, theirs]) {
      await side?.http.close();
      await side?.bench.stop();
    }
  }

  const verdict = (ratio: number) => (Math.abs(ratio - 1) <= within ? `within ±${within * 100}%` : ratio > 1 ? 'faster' : 'slower');
  const table = markdownTable(
    ['operation', 'this checkout ok/s (median round)', 'other ok/s', 'median of the rounds\' ratios', 'rounds', 'p99 ms (this / other)', 'verdict', 'server CPU µs/op (this / other)', 'median of the rounds\' CPU ratios', 'CPU rounds', 'CPU verdict'],
    compared.map((c) => [
      c.label,
      c.a.perSecond.toFixed(1),
      c.b.perSecond.toFixed(1),
      c.ratio.toFixed(3),
      c.ratios.map((r) => r.toFixed(2)).join(', '),
      `${ms(c.a.summary.p99)} / ${ms(c.b.summary.p99)}`,
      verdict(c.ratio),
      `${serverUs(c.a).toFixed(0)} / ${serverUs(c.b).toFixed(0)}`,
      (c.cpuRatio ?? Number.NaN).toFixed(3),
      (c.cpuRatios ?? []).map((r) => r.toFixed(2)).join(', '),
      // Less CPU per operation is better: the ratio's inverse reads like the rates' ratio.
      verdict(1 / (c.cpuRatio ?? Number.NaN)),
    ]),
  );
  const text = [
    `# Comparison ${machine.date.slice(0, 16)} UTC: this checkout against ${against}`,
    '',
    `Machine: ${machineLine(machine)}.`,
    `Run: two servers${args.production ? ` of the production build (NODE_ENV=production, LOG_LEVEL=info: request logs and security events on${theirLogLevel === 'warn' ? "; the other side's LOG_LEVEL=warn: no request lines" : ''})` : ''} on ${database === 'sqlite' ? 'SQLite' : 'PostgreSQL'}, Node ${process.version}, ${members} members each, closed loop of ${workers} keep-alive connections; each operation in turns on one and the other, ${rounds} rounds of ${seconds / 2} s, the order swapped every round; a ratio is this checkout's rate over the other's in the same round; a CPU ratio is this checkout's server CPU per operation (its threads, and PostgreSQL's processes) over the other's in the same round, and the CPU verdict reads the median of the rounds' CPU ratios (within ±${within * 100}%: the same). The CPU µs/op columns are each side's median round.`,
    '',
    table,
    '',
    ...(floors.length > 0 ? [floorTable(floors), ''] : []),
    errorTable(errors),
    '',
  ].join('\n');
  say(`\n${text}`);
  mkdirSync(args.out, { recursive: true });
  const file = `${args.out}${machine.date.slice(0, 16).replace(':', '')}-compare${database === 'sqlite' ? '' : `-${database}`}.md`;
  writeFileSync(file, text);
  say(`written: ${file}`);
  return 0;
}

runMain(main);
