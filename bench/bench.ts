/**
 * The benchmark of issue 9: the hot paths of the product (password login, refresh grant,
 * introspection, /api/user, the card list) against two ceilings measured in the same run on the
 * same machine (a bare Fastify route, a bare argon2id verify loop), and the budgets as ratios of
 * the two. Run it with
 *
 *   node --import tsx bench/bench.ts [--database sqlite|postgres] [--members 1000] [--seconds 10] [--workers 16]
 *
 * It prints a table and writes it to bench/results/<date>-<database>.md and .json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { ratioBudget, NOT_MEASURED_YET, okPerSecond, type BudgetResult } from './lib/budgets.ts';
import { argon2Ceiling, bareFastifyCeiling } from './lib/ceilings.ts';
import { refresh, type Member, type OperationName } from './lib/flows.ts';
import { databaseKind, positiveNumber, runMain, say } from './lib/cli.ts';
import { httpClient, type HttpClient } from './lib/http.ts';
import { closedLoop, type LoadResult } from './lib/load.ts';
import { describeMachine, machineLine } from './lib/machine.ts';
import { MemberPool, mixedJobs } from './lib/members.ts';
import { errorTable, markdownTable, ms } from './lib/report.ts';
import { seedMembers } from './lib/seed.ts';
import type { OpSummary } from './lib/stats.ts';
import { startBenchSystem } from './lib/system.ts';

const { values: args } = parseArgs({
  options: {
    database: { type: 'string', default: 'sqlite' },
    members: { type: 'string', default: '1000' },
    seconds: { type: 'string', default: '10' },
    workers: { type: 'string', default: '16' },
    out: { type: 'string', default: new URL('./results/', import.meta.url).pathname },
    verbose: { type: 'boolean', default: false },
  },
});

const seconds = positiveNumber('seconds', args.seconds);
const members = Math.round(positiveNumber('members', args.members));
const workers = Math.round(positiveNumber('workers', args.workers));
const database = databaseKind(args.database);
const durationMs = seconds * 1000;
const warmupMs = Math.min(2000, durationMs / 2);

/** The product's operations, in the order of the table: `label` is what the issue calls them. */
const PHASES: readonly { op: OperationName; label: string }[] = [
  { op: 'authorize', label: 'login (authorize POST)' },
  { op: 'refresh', label: 'refresh grant' },
  { op: 'introspect', label: 'introspection (SIAP004)' },
  { op: 'user', label: '/api/user' },
  { op: 'cards', label: 'card list' },
];

interface Row {
  label: string;
  summary: OpSummary;
  perSecond: number;
}


/** One row of the table from a load result of one operation. */
function rowOf(label: string, r: LoadResult): Row {
  const s = r.recorder.summary().find((x) => x.op !== 'all') ?? (r.recorder.summary()[0] as OpSummary);
  const perSecond = okPerSecond(s, r.durationMs / 1000);
  say(`  ${label}: ${perSecond.toFixed(1)} ok/s, p50 ${ms(s.p50)} ms, p99 ${ms(s.p99)} ms, ${s.errors} errors`);
  for (const [kind, n] of r.recorder.errors) say(`    ${kind}: ${n}`);
  return { label, summary: s, perSecond };
}

/** The size of a real token response, for the bare route to answer as much: one refresh, read through a wrapper. */
async function tokenResponseBytes(http: HttpClient, m: Member): Promise<number> {
  let bytes = 0;
  const sizing: HttpClient = {
    ...http,
    post: async (path, body, headers) => {
      const a = await http.post(path, body, headers);
      bytes = a.text.length;
      return a;
    },
  };
  const outcome = await refresh(sizing, m);
  if (!outcome.ok) throw new Error(`sizing refresh failed: ${outcome.kind}`);
  return bytes;
}

async function measureProduct(): Promise<{ rows: Row[]; tokenBytes: number; errors: Map<string, number> }> {
  const bench = await startBenchSystem(database, { quiet: !args.verbose });
  const http = httpClient(bench.system.origin, workers);
  const errors = new Map<string, number>();
  try {
    const seeded = await seedMembers({ databaseUrl: bench.system.databaseUrl, origin: bench.system.origin, count: members });
    say(`seeded ${seeded.length} members with tokens on ${database}`);
    const tokenBytes = await tokenResponseBytes(http, seeded[0] as Member);
    const pool = new MemberPool(seeded);
    const rows: Row[] = [];
    for (const { op, label } of PHASES) {
      const next = mixedJobs(http, pool, { [op]: 1 });
      await closedLoop({ workers, durationMs: warmupMs, next });
      const r = await closedLoop({ workers, durationMs, next });
      rows.push(rowOf(label, r));
      for (const [k, n] of r.recorder.errors) errors.set(k, (errors.get(k) ?? 0) + n);
    }
    return { rows, tokenBytes, errors };
  } finally {
    await http.close();
    await bench.stop();
  }
}

/** Exits 0 whatever the verdicts: the bench reports, it does not gate (it is not part of `npm test`). */
async function main(): Promise<number> {
  const machine = describeMachine();
  say(`bench: ${database}, ${members} members, ${workers} keep-alive connections, ${seconds} s per operation\nmachine: ${machineLine(machine)}`);
  const product = await measureProduct();
  say(`ceilings (token response ${product.tokenBytes} bytes) …`);
  const bare = rowOf('ceiling: bare Fastify', await bareFastifyCeiling({ bytes: product.tokenBytes, workers, durationMs, warmupMs }));
  const argon2 = rowOf('ceiling: argon2id verify', await argon2Ceiling({ workers, durationMs, warmupMs }));
  const [login, refreshRow, introspection] = product.rows as [Row, Row, Row];

  const budgets: BudgetResult[] = [
    ratioBudget({ budget: 'login ≥ 85% of the argon2id ceiling', product: login.summary, productPerSecond: login.perSecond, ceilingPerSecond: argon2.perSecond, share: 0.85 }),
    ratioBudget({ budget: 'refresh ≥ 12% of bare Fastify, p99 < 25 ms', product: refreshRow.summary, productPerSecond: refreshRow.perSecond, ceilingPerSecond: bare.perSecond, share: 0.12, p99Ms: 25 }),
    ratioBudget({ budget: 'introspection ≥ 30% of bare Fastify, p99 < 25 ms', product: introspection.summary, productPerSecond: introspection.perSecond, ceilingPerSecond: bare.perSecond, share: 0.3, p99Ms: 25 }),
    ...NOT_MEASURED_YET,
  ];

  const all = [...product.rows, bare, argon2];
  const figures = markdownTable(
    ['operation', 'ok/s', 'p50 ms', 'p99 ms', 'max ms', 'errors'],
    all.map((r) => [r.label, r.perSecond.toFixed(1), ms(r.summary.p50), ms(r.summary.p99), ms(r.summary.max), r.summary.errors]),
  );
  const budgetTable = markdownTable(['budget', 'measured', 'verdict'], budgets.map((b) => [b.budget, b.measured, b.verdict]));
  const text = [
    `# Benchmark ${machine.date.slice(0, 10)} on ${database}`,
    '',
    `Machine: ${machineLine(machine)}.`,
    `Run: ${members} members seeded with tokens, closed loop of ${workers} keep-alive connections, ${seconds} s per operation after ${warmupMs / 1000} s of warm-up; token response ${product.tokenBytes} bytes.`,
    '',
    figures,
    '',
    budgetTable,
    '',
    errorTable(product.errors),
    '',
  ].join('\n');
  say(`\n${text}`);

  mkdirSync(args.out, { recursive: true });
  const base = `${args.out}${machine.date.slice(0, 10)}-${database}`;
  writeFileSync(`${base}.md`, text);
  const json = { machine, database, members, workers, seconds, tokenBytes: product.tokenBytes, operations: all, budgets };
  writeFileSync(`${base}.json`, `${JSON.stringify(json, null, 2)}\n`);
  say(`written: ${base}.md, ${base}.json`);
  return 0;
}

runMain(main);
