/**
 * The statements and round trips each hot path of bench/lib/flows.ts asks of the database
 * (docs/performance.md, "Statements and round trips per operation"). The server starts as the load
 * tools start it (bench/lib/system.ts), on its own SQLite file and on a fresh PostgreSQL database;
 * each operation runs once per member for a few seeded members after a warm-up, and each of its
 * requests is followed by a wait until the database has been quiet for a moment, so that what the
 * server writes after answering counts with the request. Run it with
 *
 *   npm run bench:statements [-- --database sqlite|postgres] [--production] [--repeat 5] [--sql]
 *
 * PostgreSQL is counted on the wire: the server's DATABASE_URL names a relay
 * (bench/lib/pg-wire-counter.ts) that reads what the backend answered, a statement per
 * CommandComplete or ErrorResponse, a round trip per ReadyForQuery. SQLite is counted inside the
 * server by bench/lib/statement-probe.mjs (each statement better-sqlite3 runs); it has no round trips.
 * The figure of a request is the median of its repetitions (a background task of the server, such as
 * the client registry's poll, may add a statement to one of them). `--sql` lists each request's SQL.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { databaseKind, positiveNumber, runMain, say } from './lib/cli.ts';
import { OPERATIONS, useClientSecrets, type Member, type OperationName } from './lib/flows.ts';
import { httpClient, type HttpClient } from './lib/http.ts';
import { startWireCounter, type WireCounter } from './lib/pg-wire-counter.ts';
import { markdownTable } from './lib/report.ts';
import { seedMembers } from './lib/seed.ts';
import { startBenchSystem, type BenchSystem, type DatabaseKind } from './lib/system.ts';

const { values: args } = parseArgs({
  options: {
    database: { type: 'string' },
    production: { type: 'boolean', default: false },
    repeat: { type: 'string', default: '5' },
    sql: { type: 'boolean', default: false },
  },
});

/** The hot paths, in the order of the table. */
const MEASURED: readonly OperationName[] = ['passwordLogin', 'passkeySignIn', 'refresh', 'refreshOpenid', 'refreshDpop', 'introspect', 'user', 'cards'];

/** What the database was asked since the previous reading. */
interface Reading {
  statements: number;
  /** PostgreSQL only. */
  roundTrips?: number;
  sql: string[];
}

interface Meter {
  /** The counts since the previous call, and starts again from zero. */
  take(): Promise<Reading>;
  close(): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function wireMeter(relay: WireCounter): Meter {
  return {
    take: async () => {
      const { statements, roundTrips, sql } = relay.counts();
      relay.reset();
      return { statements, roundTrips, sql };
    },
    close: () => relay.close(),
  };
}

const PROBE = new URL('./lib/statement-probe.mjs', import.meta.url);

/** SQLite: the probe in the server writes its counts on SIGWINCH. */
function probeMeter(file: string, pid: () => number): Meter {
  let seq = 0;
  return {
    take: async () => {
      process.kill(pid(), 'SIGWINCH');
      const deadline = Date.now() + 5_000;
      for (;;) {
        if (existsSync(file)) {
          const r = JSON.parse(readFileSync(file, 'utf8')) as { seq: number; statements: number; sql: string[] };
          if (r.seq > seq) {
            seq = r.seq;
            return { statements: r.statements, sql: r.sql };
          }
        }
        if (Date.now() > deadline) throw new Error('the statement probe did not answer (is it preloaded?)');
        await sleep(10);
      }
    },
    close: async () => undefined,
  };
}

/** The counts of a request: read until the database has been quiet for `quietMs` (a write after the answer counts too). */
async function settle(meter: Meter, quietMs = 100): Promise<Reading> {
  const total: Reading = { statements: 0, sql: [] };
  for (;;) {
    await sleep(quietMs);
    const r = await meter.take();
    if (r.statements === 0 && !r.roundTrips) return total;
    total.statements += r.statements;
    if (r.roundTrips !== undefined) total.roundTrips = (total.roundTrips ?? 0) + r.roundTrips;
    total.sql.push(...r.sql);
  }
}

/** `POST /api/auth/token (refresh_token)`: the path, and the grant of a token request. */
function requestLabel(path: string, form: Record<string, string> | URLSearchParams | undefined): string {
  const grant = form instanceof URLSearchParams ? form.get('grant_type') : form?.grant_type;
  return `POST ${path.split('?')[0] ?? path}${grant ? ` (${grant})` : ''}`;
}

/** The bench's HTTP client, reading the meter after each request: the readings of one operation, request by request. */
function meteredClient(http: HttpClient, meter: Meter, steps: { label: string; reading: Reading }[]): HttpClient {
  return {
    ...http,
    post: async (path, body, headers) => {
      const answer = await http.post(path, body, headers);
      steps.push({ label: requestLabel(path, body.form), reading: await settle(meter) });
      return answer;
    },
  };
}

/** Each request of each operation: its readings, one per repetition. */
type Readings = Map<string, Map<string, Reading[]>>;

async function measure(database: DatabaseKind, repeat: number): Promise<Readings> {
  let relay: WireCounter | undefined;
  const dir = mkdtempSync(join(tmpdir(), 'sso-statements-'));
  const file = join(dir, 'statements.json');
  let bench: BenchSystem | undefined;
  try {
    bench = await startBenchSystem(database, {
      production: args.production,
      relayDatabase: async (url) => {
        relay = await startWireCounter(url);
        return relay.url;
      },
      ...(database === 'sqlite' ? { preload: { modules: [PROBE], env: { BENCH_STATEMENTS_FILE: file } } } : {}),
    });
    const system = bench.system;
    const meter = relay ? wireMeter(relay) : probeMeter(file, () => system.pid());
    useClientSecrets(bench.clientSecretPrefix);
    const members = await seedMembers({ databaseUrl: system.databaseUrl, origin: system.origin, count: repeat + 2 });
    const http = httpClient(system.origin, 1);
    const readings: Readings = new Map();
    try {
      for (const op of MEASURED) {
        const run = OPERATIONS[op];
        // Two warm-up runs on members of their own: the statements compiled and prepared, the pool's connection open.
        for (const m of members.slice(repeat)) await run(http, m);
        await settle(meter);
        const byRequest = new Map<string, Reading[]>();
        for (const m of members.slice(0, repeat) as Member[]) {
          const steps: { label: string; reading: Reading }[] = [];
          const outcome = await run(meteredClient(http, meter, steps), m);
          if (!outcome.ok) throw new Error(`${op} on ${database} failed: ${outcome.kind}`);
          for (const { label, reading } of steps) byRequest.set(label, [...(byRequest.get(label) ?? []), reading]);
        }
        readings.set(op, byRequest);
      }
    } finally {
      await http.close();
      await meter.close();
    }
    return readings;
  } finally {
    await bench?.stop();
    await relay?.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)] as number;
};

/** The median of a request's readings, and its range when the repetitions differed. */
function figure(readings: Reading[] | undefined, of: (r: Reading) => number | undefined): string {
  const values = (readings ?? []).map(of).filter((v): v is number => v !== undefined);
  if (values.length === 0) return '–';
  const [low, high] = [Math.min(...values), Math.max(...values)];
  return low === high ? String(low) : `${median(values)} (${low}–${high})`;
}

function table(results: Map<DatabaseKind, Readings>): string {
  const rows: string[][] = [];
  const sqlite = results.get('sqlite');
  const postgres = results.get('postgres');
  const sum = (readings: Readings | undefined, op: string, of: (r: Reading) => number | undefined): string => {
    const requests = [...(readings?.get(op)?.values() ?? [])];
    if (requests.length === 0 || requests.some((r) => r.every((x) => of(x) === undefined))) return '–';
    return String(requests.reduce((s, r) => s + median(r.map((x) => of(x) ?? 0)), 0));
  };
  for (const op of MEASURED) {
    const labels = [...new Set([...(sqlite?.get(op)?.keys() ?? []), ...(postgres?.get(op)?.keys() ?? [])])];
    for (const label of labels) {
      rows.push([
        op,
        label,
        figure(sqlite?.get(op)?.get(label), (r) => r.statements),
        figure(postgres?.get(op)?.get(label), (r) => r.statements),
        figure(postgres?.get(op)?.get(label), (r) => r.roundTrips),
      ]);
    }
    if (labels.length > 1) rows.push([op, '**all its requests**', sum(sqlite, op, (r) => r.statements), sum(postgres, op, (r) => r.statements), sum(postgres, op, (r) => r.roundTrips)]);
  }
  return markdownTable(['operation', 'request', 'SQLite statements', 'PostgreSQL statements', 'PostgreSQL round trips'], rows);
}

function sqlListing(database: DatabaseKind, readings: Readings): string {
  const lines = [`SQL of the last repetition, ${database}:`];
  for (const [op, byRequest] of readings) {
    for (const [label, rs] of byRequest) {
      lines.push(`\n${op}, ${label}:`);
      for (const text of rs[rs.length - 1]?.sql ?? []) lines.push(`  ${text.replace(/\s+/g, ' ').slice(0, 240)}`);
    }
  }
  return lines.join('\n');
}

async function main(): Promise<number> {
  const databases: DatabaseKind[] = args.database ? [databaseKind(args.database)] : ['sqlite', 'postgres'];
  const repeat = Math.round(positiveNumber('repeat', args.repeat));
  const results = new Map<DatabaseKind, Readings>();
  for (const database of databases) {
    say(`measuring on ${database}…`);
    results.set(database, await measure(database, repeat));
  }
  say(`\nStatements and round trips per request, the median of ${repeat} repetitions (their range when they differed):\n`);
  say(table(results));
  if (args.sql) for (const [database, readings] of results) say(`\n${sqlListing(database, readings)}`);
  return 0;
}

if (import.meta.url === `file://${process.argv[1]}`) runMain(main);
