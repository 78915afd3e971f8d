/**
 * The benchmark of docs/performance.md. Its budgets are ratios of CPU per operation (budgets.ts): the
 * CPU the server spends (all its threads, and its PostgreSQL backends) over the operations it
 * completed, measured in turns in the same run, which the load on these shared machines does not
 * move as it moves a rate. It measures the hot paths of the product (password login, refresh grant,
 * introspection, /api/user, the card list), each taking turns with one of two references on the same
 * machine (a bare argon2id verify loop for the login, a bare Fastify route, the floor, for the
 * others); the passkey sign-in in turns with the password login, and its challenge rows per sign-in;
 * the refresh grant with `openid` (a new ID token signed each time) and the DPoP-bound one, each in
 * turns with the plain refresh grant, and one ES256 signature's CPU; a partner's refresh grant (a
 * confidential client with client_secret_basic) and introspection in turns with node-oidc-provider's,
 * whose client authenticates the same way (bench/lib/peer.ts); the refresh grant on a
 * second server on the other database (SQLite and PostgreSQL), in turns; the same paths on a second
 * server whose database holds `--growth` members, in turns with the first; the password hashes per
 * login; the JavaScript of the SPA's login route; Lighthouse on the login and Top pages. Rates and
 * percentiles are reported as information; the token endpoint's p99 is the one latency budget.
 * `--seconds` is each source's time per comparison, in rounds of half of it. `--production` runs the
 * production build (`npm run build`, done first) as docs/operations.md configures it, request logs
 * on, and adds their cost: refresh and introspection in turns with a second server without them.
 * Run it with
 *
 *   npm run bench [-- --database sqlite|postgres] [--production] [--members 1000] [--growth 1000000] [--seconds 10] [--workers 16] [--no-lighthouse]
 *
 * It prints a table and writes it to bench/results/<date>T<hhmm>-[production-]<database>.md and .json. It
 * needs the SPA build (npm run build:web) for the size and Lighthouse figures.
 */
import { execSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { BUDGETS, boundBudget, cpuBeyondBudget, cpuRatioBudget, growthBudget, median, notMeasured, p99Budget, pairedMedian, type BudgetResult } from './lib/budgets.ts';
import { seedFiller } from './lib/filler.ts';
import { hashesPerLogin } from './lib/hashes.ts';
import { challengeRowsPerSignIn } from './lib/passkey-rows.ts';
import { lighthouseScores, type PageScore } from './lib/lighthouse.ts';
import { routeJavaScript } from './lib/spa-size.ts';
import { argon2Verify, bareFastify, type Ceiling } from './lib/ceilings.ts';
import { refresh, useClientSecrets, type Member, type OperationName } from './lib/flows.ts';
import { databaseKind, positiveNumber, runMain, say } from './lib/cli.ts';
import { httpClient, type HttpClient } from './lib/http.ts';
import { closedLoop } from './lib/load.ts';
import { ROUNDS, cpuSides, takeTurns, type Row, type Turns } from './lib/turns.ts';
import { describeMachine, machineLine } from './lib/machine.ts';
import { MemberPool, mixedJobs } from './lib/members.ts';
import { errorTable, markdownTable, ms } from './lib/report.ts';
import { es256SignatureUs } from './lib/signature.ts';
import { postgresDatabase, threadCpu, type ThreadCpu } from './lib/thread-cpu.ts';
import { startPeerProvider } from './lib/peer.ts';
import { seedMembers } from './lib/seed.ts';
import { startBenchSystem, type BenchSystem, type DatabaseKind } from './lib/system.ts';
import { WEB_CLIENT_ID } from '@sso/contracts/constants';
import { isTermKey } from '@sso/contracts/terms';
import { loadClients } from '@sso/server/test-support/internals';
import { ROOT } from '@sso/server/test-support';

const { values: args } = parseArgs({
  options: {
    database: { type: 'string', default: 'sqlite' },
    members: { type: 'string', default: '1000' },
    growth: { type: 'string', default: '1000000' },
    'no-lighthouse': { type: 'boolean', default: false },
    seconds: { type: 'string', default: '10' },
    workers: { type: 'string', default: '16' },
    out: { type: 'string', default: new URL('./results/', import.meta.url).pathname },
    verbose: { type: 'boolean', default: false },
    production: { type: 'boolean', default: false },
  },
});

const seconds = positiveNumber('seconds', args.seconds);
const members = Math.round(positiveNumber('members', args.members));
/** The member count of the growth run (0: no growth run). */
const growth = args.growth === '0' ? 0 : Math.round(positiveNumber('growth', args.growth));
const workers = Math.round(positiveNumber('workers', args.workers));
const database = databaseKind(args.database);
const durationMs = seconds * 1000;
const warmupMs = Math.min(2000, durationMs / 2);
const timing = { workers, durationMs, warmupMs };
/** `--production`: the production build in its recommended configuration, request logs on (bench/lib/system.ts). */
const production = args.production;

/**
 * The product's operations, in the order of the table: `label` is what docs/performance.md calls
 * them, and `ceiling` the reference they take turns with (the login's is the argon2id loop, its
 * budget's unit; the others' the bare route, the floor of a request's CPU).
 */
const PASSWORD_LOGIN_LABEL = 'password login (login step, authorize POST, code exchange)';
const PHASES: readonly { op: OperationName; label: string; ceiling: CeilingName }[] = [
  { op: 'passwordLogin', label: PASSWORD_LOGIN_LABEL, ceiling: 'argon2' },
  { op: 'refresh', label: 'refresh grant', ceiling: 'bare' },
  { op: 'introspect', label: 'introspection (SIAP004)', ceiling: 'bare' },
  { op: 'user', label: '/api/user', ceiling: 'bare' },
  { op: 'cards', label: 'card list', ceiling: 'bare' },
];

/** The operations whose request-log cost is measured. */
const LOGGED_PHASES = PHASES.filter((p) => p.op === 'refresh' || p.op === 'introspect');

/**
 * The operations measured against node-oidc-provider's, each as the peer's is sent: a confidential
 * client's refresh grant with client_secret_basic (Net Answer's, without openid; the peer's client
 * authenticates the same way, bench/lib/peer.ts), not the SPA's public refresh without client
 * authentication, and the introspection, with client_secret_basic on both sides.
 */
const PEER_PHASES: readonly { op: OperationName; label: string; peerOp: 'refresh' | 'introspect'; peerLabel: string }[] = [
  { op: 'partnerRefresh', label: 'partner refresh grant (SIAP004, client_secret_basic)', peerOp: 'refresh', peerLabel: 'node-oidc-provider refresh grant (client_secret_basic)' },
  { op: 'introspect', label: 'introspection (SIAP004)', peerOp: 'introspect', peerLabel: 'node-oidc-provider introspection (client_secret_basic)' },
];

/**
 * The request log of the production run (pino JSON, one object a line): its request lines
 * (`request completed`, `request errored`: http/request-log.ts), and how many of them name the
 * request's id (`reqId`), by which one request's lines are found (docs/operations.md, "Support reference").
 */
function requestLogLines(file: string): { lines: number; withId: number } {
  let lines = 0;
  let withId = 0;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (line === '') continue;
    let entry: Record<string, unknown>;
    try {
      entry = JSON.parse(line) as Record<string, unknown>;
    } catch {
      continue;
    }
    if (entry.msg !== 'request completed' && entry.msg !== 'request errored') continue;
    lines++;
    if (typeof entry.reqId === 'string' && entry.reqId !== '') withId++;
  }
  return { lines, withId };
}

type CeilingName = 'bare' | 'argon2';
const CEILING_LABEL: Record<CeilingName, string> = { bare: 'bare Fastify route', argon2: 'argon2id verify loop' };

/** The CPU of a product server (thread-cpu.ts): its threads, and its own PostgreSQL backends when it runs on PostgreSQL. */
const serverCpu = (bench: BenchSystem) => {
  const database = postgresDatabase(bench.system.databaseUrl);
  return (): ThreadCpu => threadCpu(bench.system.pid(), database);
};

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

/** Each operation in turns with another source: the operation's side is `a`. */
interface Compared extends Turns {
  label: string;
}

interface ProductRun {
  /** Each operation (a) in turns with its ceiling (b), in the order of PHASES. */
  ceilings: Compared[];
  /** The passkey sign-in (a) in turns with the password login (b), and the challenge rows per sign-in. */
  passkey: Compared;
  /** The refresh grant with openid (a) in turns with the plain refresh grant (b). */
  openidRefresh: Compared;
  /** The DPoP-bound refresh grant (a) in turns with the plain refresh grant (b). */
  dpopRefresh: Compared;
  challengeRows: { written: number; live: number; signIns: number };
  /** Growth: each operation on the small (a) and on the grown database (b), in turns. */
  growth: Compared[] | undefined;
  /** The production run: the refresh and introspection with request logs (a) and on a server without them (b), in turns. */
  logCost: Compared[] | undefined;
  /** The partner refresh grant (client_secret_basic) and introspection (a) in turns with node-oidc-provider's (b), its client authenticated alike. */
  peer: Compared[];
  /** node-oidc-provider's sessions, minted and still live at the end (bench/lib/peer.ts). */
  peerSessions: { minted: number; live: number };
  /** The refresh grant on a PostgreSQL server (a) in turns with one on SQLite (b), whichever the run's own server is. */
  databases: Compared;
  /** One ES256 signature's CPU in µs, measured in the driver (lib/signature.ts). */
  signatureUs: number;
  /** The production run's request log lines, and how many name their request id. */
  requestLog: { lines: number; withId: number } | undefined;
  tokenBytes: number;
  errors: Map<string, number>;
  lighthouse: PageScore[] | Error | undefined;
}

/** Each product operation in turns with its ceiling (the bare route answering as many bytes as a token response). */
async function measureAgainstCeilings(http: HttpClient, pool: MemberPool, tokenBytes: number, errors: Map<string, number>, cpu: () => ThreadCpu): Promise<Compared[]> {
  say(`each operation in turns with its reference (token response ${tokenBytes} bytes) …`);
  const ceilings: Record<CeilingName, Ceiling> = { bare: await bareFastify({ bytes: tokenBytes, workers }), argon2: await argon2Verify() };
  try {
    const compared: Compared[] = [];
    for (const { op, label, ceiling } of PHASES) {
      // The CPU by process of both sides (thread-cpu.ts); the argon2id loop runs in the driver itself.
      const turns = await takeTurns(
        { label, next: mixedJobs(http, pool, { [op]: 1 }), cpu },
        { label: `${CEILING_LABEL[ceiling]}, in turns with ${label}`, next: ceilings[ceiling].next, cpu: ceilings[ceiling].cpu },
        errors,
        timing,
      );
      compared.push({ ...turns, label });
    }
    return compared;
  } finally {
    await ceilings.bare.stop();
    await ceilings.argon2.stop();
  }
}

/** One operation in turns with another it is measured against (not a ceiling): the figure is their ratio. */
interface Pairing {
  op: OperationName;
  label: string;
  against: { op: OperationName; label: string };
}

async function measureInTurns(http: HttpClient, pool: MemberPool, errors: Map<string, number>, p: Pairing, cpu: () => ThreadCpu): Promise<Compared> {
  say(`${p.label} in turns with ${p.against.label} …`);
  const turns = await takeTurns(
    { label: p.label, next: mixedJobs(http, pool, { [p.op]: 1 }), cpu },
    { label: `${p.against.label}, in turns with the ${p.label}`, next: mixedJobs(http, pool, { [p.against.op]: 1 }), cpu },
    errors,
    timing,
  );
  return { ...turns, label: p.label };
}

/**
 * The passkey sign-in in turns with the password login (decision 0024): the same hand-off with an
 * ECDSA signature checked where the password login hashes with argon2id.
 */
const PASSKEY_LABEL = 'passkey sign-in (options, assertion, authorize POST)';
const PASSKEY_PAIRING: Pairing = { op: 'passkeySignIn', label: PASSKEY_LABEL, against: { op: 'passwordLogin', label: PASSWORD_LOGIN_LABEL } };

/**
 * The refresh grant with `openid` in turns with the one without it (decision 0025): the same rotation
 * of a session of the web client, and an ID token signed with ES256 by jose with the node's cached key.
 * Each member has a session of each kind, so that both chains rotate side by side.
 */
const OPENID_REFRESH_LABEL = 'refresh grant with openid (new ID token)';
const OPENID_REFRESH_PAIRING: Pairing = { op: 'refreshOpenid', label: OPENID_REFRESH_LABEL, against: { op: 'refresh', label: 'refresh grant' } };

/**
 * The DPoP-bound refresh grant in turns with the plain one (RFC 9449; decision 0037): the same rotation,
 * and a proof checked (an embedded ES256 key imported, its signature verified, its thumbprint taken)
 * and its jti recorded in the database once. Its figure is the server's CPU per refresh.
 */
const DPOP_REFRESH_PAIRING: Pairing = { op: 'refreshDpop', label: 'DPoP-bound refresh grant', against: { op: 'refresh', label: 'refresh grant' } };

/**
 * What the request logs cost (the production run): two new servers, alike but for LOG_LEVEL (info,
 * the default: a line per request; warn: none), side by side on the refresh grant and introspection.
 * Both start fresh, so that neither carries the first server's ten minutes of load in its database.
 * Then the logged server's request lines are read for their request ids.
 */
async function measureLogCost(errors: Map<string, number>): Promise<{ compared: Compared[]; requestLog: { lines: number; withId: number } }> {
  say('request logs: the refresh and introspection on two new servers, with (LOG_LEVEL=info) and without them (warn), in turns …');
  const logged = await startSecondSide({ fill: false, logLevel: 'info' });
  try {
    const quiet = await startSecondSide({ fill: false, logLevel: 'warn' });
    try {
      const compared = await measureSideBySide({ ...logged.side, name: 'request logs on' }, { ...quiet.side, name: 'request logs off' }, errors, LOGGED_PHASES);
      if (!logged.logFile) throw new Error('the logged server kept no log file');
      return { compared, requestLog: requestLogLines(logged.logFile) };
    } finally {
      await quiet.stop();
    }
  } finally {
    await logged.stop();
  }
}

/**
 * The product's partner refresh grant and introspection (PEER_PHASES) in turns with node-oidc-provider's
 * (bench/lib/peer.ts): like for like, a confidential client authenticated with client_secret_basic on
 * both sides, a durable store, refresh rotation on, a request log; the same driver and connections; the product
 * as this run starts it (with --production, the production build with its request logs). Each side's
 * CPU per operation: the product's server with its database backends, the peer's process.
 */
async function measureAgainstPeer(
  http: HttpClient,
  pool: MemberPool,
  errors: Map<string, number>,
  cpu: () => ThreadCpu,
): Promise<{ compared: Compared[]; sessions: { minted: number; live: number } }> {
  say('node-oidc-provider beside the product: the partner refresh and introspection in turns …');
  const peer = await startPeerProvider(members);
  const peerHttp = httpClient(peer.origin, workers);
  try {
    const compared: Compared[] = [];
    for (const { op, label, peerOp, peerLabel } of PEER_PHASES) {
      const turns = await takeTurns(
        { label, next: mixedJobs(http, pool, { [op]: 1 }), cpu },
        { label: `${peerLabel}, in turns with ${label}`, next: peer.jobs(peerHttp, peerOp), cpu: () => threadCpu(peer.pid) },
        errors,
        timing,
      );
      compared.push({ ...turns, label });
    }
    return { compared, sessions: peer.sessions() };
  } finally {
    await peerHttp.close();
    await peer.stop();
  }
}

/** A system under load with its members (the small database or the grown one; SQLite or PostgreSQL), and the reading of its CPU. */
interface Side {
  http: HttpClient;
  pool: MemberPool;
  cpu: () => ThreadCpu;
}

/**
 * Two servers measured side by side (growth: the small database and the grown one; request logs:
 * on and off), taking turns in short rounds of each operation. Measured one after the other,
 * minutes apart, two states differed by more than the 20% growth budget from the machine's drift alone.
 */
async function measureSideBySide(
  a: Side & { name: string },
  b: Side & { name: string },
  errors: Map<string, number>,
  phases: readonly { op: OperationName; label: string }[],
): Promise<Compared[]> {
  const compared: Compared[] = [];
  // Both servers warmed on every operation first: the second was just (re)started, and in the run
  // of 08:09 UTC the grown one's first rounds of /api/user were a third slower than its last (a cold start, not the size).
  for (const { op } of phases) {
    for (const side of [a, b]) await closedLoop({ workers, durationMs: durationMs / 2, next: mixedJobs(side.http, side.pool, { [op]: 1 }) });
  }
  for (const { op, label } of phases) {
    const turns = await takeTurns(
      { label: `${label}, ${a.name}`, next: mixedJobs(a.http, a.pool, { [op]: 1 }), cpu: a.cpu },
      { label: `${label}, ${b.name}`, next: mixedJobs(b.http, b.pool, { [op]: 1 }), cpu: b.cpu },
      errors,
      timing,
    );
    compared.push({ ...turns, label });
  }
  return compared;
}

/**
 * A second server, as the first runs (the production build when it is), with `members` load members:
 * `fill`, its database filled up to `growth` members (the grown side); `logLevel`, the production
 * run's LOG_LEVEL (warn: the side without request logs); `database`, another kind of database than the run's.
 */
async function startSecondSide(o: { fill: boolean; logLevel?: 'info' | 'warn'; database?: DatabaseKind }): Promise<{ side: Side; logFile: string | undefined; stop: () => Promise<void> }> {
  const bench = await startBenchSystem(o.database ?? database, { quiet: !args.verbose, production, ...(o.logLevel ? { logLevel: o.logLevel } : {}) });
  try {
    const seeded = await seedMembers({ databaseUrl: bench.system.databaseUrl, origin: bench.system.origin, count: members });
    if (o.fill) {
      say(`growth: seeding ${growth - members} more members into a second server's database …`);
      const started = Date.now();
      const terms = loadClients(`${ROOT}config/clients.json`, bench.system.origin).get(WEB_CLIENT_ID)?.terms.filter(isTermKey) ?? [];
      await seedFiller({ databaseUrl: bench.system.databaseUrl, count: growth - members, terms, progress: (n) => say(`  ${n} written`) });
      // Measured as a server meets a database of that size, not in the bulk load's wake: the load
      // written to the disk (otherwise its gigabytes of write-back are measured), the process started on it.
      execSync('sync');
      await bench.system.restart();
      say(`  seeded in ${((Date.now() - started) / 1000).toFixed(0)} s, server restarted; both servers side by side:`);
    }
    const http = httpClient(bench.system.origin, workers);
    return {
      side: { http, pool: new MemberPool(seeded), cpu: serverCpu(bench) },
      logFile: bench.logFile,
      stop: async () => {
        await http.close();
        await bench.stop();
      },
    };
  } catch (e) {
    await bench.stop();
    throw e;
  }
}

/**
 * The refresh grant on PostgreSQL in turns with SQLite: the run's own server and a second one on the
 * other database, each with its members; each side's CPU per refresh is its node's and, on
 * PostgreSQL, its database's backends'.
 */
async function measureDatabases(own: Side, errors: Map<string, number>): Promise<Compared> {
  const other: DatabaseKind = database === 'sqlite' ? 'postgres' : 'sqlite';
  say(`the refresh grant on ${database} in turns with a second server on ${other} …`);
  const second = await startSecondSide({ fill: false, database: other });
  try {
    const sides = { [database]: { ...own, name: `on ${database}` }, [other]: { ...second.side, name: `on ${other}` } } as Record<DatabaseKind, Side & { name: string }>;
    const [compared] = await measureSideBySide(sides.postgres, sides.sqlite, errors, [{ op: 'refresh', label: 'refresh grant' }]);
    return compared as Compared;
  } finally {
    await second.stop();
  }
}

async function measureProduct(): Promise<ProductRun> {
  const bench = await startBenchSystem(database, { quiet: !args.verbose, production });
  useClientSecrets(bench.clientSecretPrefix);
  const http = httpClient(bench.system.origin, workers);
  const errors = new Map<string, number>();
  try {
    const seeded = await seedMembers({ databaseUrl: bench.system.databaseUrl, origin: bench.system.origin, count: members });
    say(`seeded ${seeded.length} members with tokens on ${database}`);
    const tokenBytes = await tokenResponseBytes(http, seeded[0] as Member);
    const pool = new MemberPool(seeded);
    const cpu = serverCpu(bench);
    const ceilings = await measureAgainstCeilings(http, pool, tokenBytes, errors, cpu);
    const passkey = await measureInTurns(http, pool, errors, PASSKEY_PAIRING, cpu);
    // With the server's CPU by thread: its signing runs in a worker thread (modules/oidc/jwt-signer.ts).
    const openidRefresh = await measureInTurns(http, pool, errors, OPENID_REFRESH_PAIRING, cpu);
    say('one ES256 signature, in this process …');
    const signature = es256SignatureUs();
    say(`  ${signature.us.toFixed(1)} µs (batches ${signature.batchesUs.map((x) => x.toFixed(1)).join(', ')})`);
    const dpopRefresh = await measureInTurns(http, pool, errors, DPOP_REFRESH_PAIRING, cpu);
    const challengeRows = await challengeRowsPerSignIn({ databaseUrl: bench.system.databaseUrl, http, member: seeded[0] as Member });
    let lighthouse: ProductRun['lighthouse'];
    // The SPA is the same build in both configurations. With --production, the run that measured
    // Lighthouse (started 2026-11-28 05:02 UTC) then hung in seeding the next server, this process idle,
    // and the cause was not found: Lighthouse stays out of the production run until it runs in a
    // process of its own.
    if (!args['no-lighthouse'] && !production) {
      say('Lighthouse on the login and Top pages …');
      lighthouse = await lighthouseScores(bench.system.origin, seeded[0] as Member).catch((e: unknown) => (e instanceof Error ? e : new Error(String(e))));
    }
    const logs = production ? await measureLogCost(errors) : undefined;
    const peer = await measureAgainstPeer(http, pool, errors, cpu);
    const databases = await measureDatabases({ http, pool, cpu }, errors);
    let growthRows: ProductRun['growth'];
    if (growth > members) {
      const grown = await startSecondSide({ fill: true });
      try {
        growthRows = await measureSideBySide({ http, pool, cpu, name: `${members} members` }, { ...grown.side, name: `${growth} members` }, errors, PHASES);
      } finally {
        await grown.stop();
      }
    }
    return {
      ceilings,
      passkey,
      openidRefresh,
      dpopRefresh,
      challengeRows,
      growth: growthRows,
      logCost: logs?.compared,
      peer: peer.compared,
      peerSessions: peer.sessions,
      databases,
      signatureUs: signature.us,
      requestLog: logs?.requestLog,
      tokenBytes,
      errors,
      lighthouse,
    };
  } finally {
    await http.close();
    await bench.stop();
  }
}

/** The budgets of the SPA: the login route's JavaScript and the Lighthouse scores. */
function spaBudgets(lighthouse: ProductRun['lighthouse']): BudgetResult[] {
  const js = routeJavaScript();
  const size = boundBudget({
    budget: BUDGETS.loginRouteJs.label(),
    value: js.gzipBytes,
    bound: BUDGETS.loginRouteJs.bound,
    kind: 'max',
    shown: `${(js.gzipBytes / 1024).toFixed(1)} KiB in ${js.files.length} files`,
  });
  const lhBudget = BUDGETS.lighthouse.label();
  if (lighthouse === undefined) return [size, notMeasured(lhBudget, production ? 'not with --production (the same SPA build: run the bench without it)' : 'skipped (--no-lighthouse)')];
  if (lighthouse instanceof Error) return [size, { budget: lhBudget, measured: `failed: ${lighthouse.message}`, verdict: 'falls short' }];
  const lowest = Math.min(...lighthouse.map((p) => p.score));
  return [size, boundBudget({ budget: lhBudget, value: lowest, bound: BUDGETS.lighthouse.bound, kind: 'min', shown: lighthouse.map((p) => `${p.page} ${p.score} (median of ${(p.runs ?? [p.score]).join(', ')})`).join('; ') })];
}

/** The Lighthouse metrics behind the scores (ms; CLS unitless), for reading a score that falls short. */
function lighthouseLines(lighthouse: ProductRun['lighthouse']): string {
  if (!Array.isArray(lighthouse)) return '';
  return lighthouse
    .map((p) => `Lighthouse ${p.page} (${p.score}): ${Object.entries(p.metrics).map(([k, v]) => `${k} ${k === 'cumulative-layout-shift' ? v.toFixed(3) : Math.round(v)}`).join(', ')}.`)
    .join('\n');
}

/** The median over the rounds of a comparison's side's server CPU µs per operation (NaN without readings). */
const sideUs = (c: Turns, side: 'a' | 'b'): number => median(c.cpuRounds?.[side] ?? []);
const us = (x: number): string => (Number.isFinite(x) ? x.toFixed(0) : '–');

/**
 * Every comparison's CPU per operation, side by side: each side's server CPU (its threads and its
 * database's backends) per operation, the median of its rounds, and the median of the rounds' ratios.
 * The figures that count (budgets.ts); rates are beside them, as information, in the figures table.
 */
function cpuComparisonTable(cs: readonly Compared[], extra: readonly (readonly string[])[]): string {
  return markdownTable(
    ['operation', 'CPU/op µs', 'in turns with', 'its CPU/op µs', 'CPU ratio (median of the rounds)'],
    [...cs.map((c) => [c.a.label, us(sideUs(c, 'a')), c.b.label.replace(/, in turns with .*$/, ''), us(sideUs(c, 'b')), c.cpuRatio === undefined ? '–' : `${c.cpuRatio.toFixed(2)}×`]), ...extra],
  );
}

/**
 * Where each operation's CPU goes, per operation (the medians of its rounds): the server's main
 * thread, its other threads, its PostgreSQL backends and the load driver, all on this machine's cores.
 */
function cpuByThreadTable(rows: readonly Row[]): string {
  const withCpu = rows.flatMap((r) => (r.cpu ? [{ label: r.label, cpu: r.cpu }] : []));
  if (withCpu.length === 0) return '';
  return [
    'CPU per operation in µs by process (the median of the rounds of each figure): all of them share the machine\'s cores.',
    '',
    markdownTable(
      ['operation', 'server main thread', 'server other threads', 'PostgreSQL', 'load driver', 'server + PostgreSQL'],
      withCpu.map(({ label, cpu: c }) => [label, us(c.mainUs), us(c.otherUs), us(c.databaseUs), us(c.driverUs), us(c.mainUs + c.otherUs + c.databaseUs)]),
    ),
  ].join('\n');
}

/**
 * How many of node-oidc-provider's sessions were still live at the end: a session whose refresh
 * failed is retired, and fewer than the connections would leave its closed loop short of sessions.
 */
function peerSessionsLines(s: ProductRun['peerSessions']): string[] {
  const short = s.live < workers ? ` Fewer than the ${workers} connections: its rates above are short of sessions, not of CPU.` : '';
  return [`node-oidc-provider's sessions: ${s.live} of the ${s.minted} minted were live at the end (its durable store, bench/peer/sqlite-adapter.ts).${short}`, ''];
}

/** The product's partner refresh and introspection against node-oidc-provider's: CPU per operation at most half of its. */
function peerBudgets(product: ProductRun): BudgetResult[] {
  return product.peer.map((c) => cpuRatioBudget({ budget: BUDGETS.peer.of(c.label), ...cpuSides(c, 'this product', 'node-oidc-provider'), bound: BUDGETS.peer.share }));
}

/** The production run's request-log budgets: each logged operation's CPU at most 10% above its CPU without logs, and every request line with its id. */
function logBudgets(product: ProductRun): BudgetResult[] {
  if (!product.logCost || !product.requestLog) return [notMeasured(BUDGETS.requestLogs.label(), 'only with --production')];
  const { lines, withId } = product.requestLog;
  return [
    ...product.logCost.map((c) =>
      cpuRatioBudget({ budget: BUDGETS.requestLogs.of(c.label), ...cpuSides(c, 'with request logs', 'without'), bound: 1 + BUDGETS.requestLogs.share }),
    ),
    boundBudget({ budget: BUDGETS.requestIds.label(), value: lines > 0 ? lines - withId : Number.NaN, bound: 0, kind: 'exactly', shown: `${withId} of ${lines} request log lines carry their reqId` }),
  ];
}

/** Each growth comparison's change of CPU per operation: the median of the rounds' grown side (b) over the small one (a), minus 1. */
const growthChange = (c: Turns): number => pairedMedian(c.cpuRounds?.b ?? [], c.cpuRounds?.a ?? [], (grown, small) => grown / small - 1);

/** Every budget of the run (BUDGETS, budgets.ts), each from its CPU figures measured in turns. */
function runBudgets(product: ProductRun, hashes: number): BudgetResult[] {
  const [login, refreshed] = product.ceilings as [Compared, Compared];
  return [
    cpuBeyondBudget({ budget: BUDGETS.login.label(), ...cpuSides(login, 'password login', 'one argon2id verification'), share: BUDGETS.login.share, strict: true }),
    boundBudget({ budget: BUDGETS.hashesPerLogin.label(), value: hashes, bound: BUDGETS.hashesPerLogin.bound, kind: 'exactly', shown: `${hashes} argon2id verifications per login (login step + authorize step)` }),
    ...peerBudgets(product),
    cpuRatioBudget({ budget: BUDGETS.postgres.label(), ...cpuSides(product.databases, 'PostgreSQL (node + database)', 'SQLite'), bound: BUDGETS.postgres.share }),
    cpuRatioBudget({ budget: BUDGETS.passkey.label(), ...cpuSides(product.passkey, 'passkey sign-in', 'password login'), bound: BUDGETS.passkey.share }),
    cpuBeyondBudget({
      budget: BUDGETS.openidRefresh.label(),
      ...cpuSides(product.openidRefresh, 'with openid', 'plain refresh'),
      plusUs: product.signatureUs,
      plusLabel: 'one ES256 signature',
      share: BUDGETS.openidRefresh.share,
    }),
    p99Budget({
      budget: BUDGETS.tokenP99.label(),
      rows: [
        { label: 'refresh', summary: refreshed.a.summary },
        { label: 'with openid', summary: product.openidRefresh.a.summary },
        { label: 'DPoP-bound', summary: product.dpopRefresh.a.summary },
      ],
      p99Ms: BUDGETS.tokenP99.p99Ms,
    }),
    boundBudget({
      budget: BUDGETS.challengeRows.label(),
      value: product.challengeRows.live === 0 ? product.challengeRows.written : Number.NaN,
      bound: BUDGETS.challengeRows.bound,
      kind: 'exactly',
      shown: `${product.challengeRows.written} rows written and ${product.challengeRows.live} left unused per sign-in (${product.challengeRows.signIns} sign-ins)`,
    }),
    ...logBudgets(product),
    product.growth
      ? growthBudget({ budget: BUDGETS.growth.label(members.toLocaleString('en'), growth.toLocaleString('en')), changes: product.growth.map((c) => ({ label: c.label, change: growthChange(c) })), share: BUDGETS.growth.share })
      : notMeasured(BUDGETS.growth.label(), 'skipped (--growth 0)'),
    ...spaBudgets(product.lighthouse),
  ];
}

/** Exits 0 whatever the verdicts: the bench reports, it does not gate (it is not part of `npm test`). */
async function main(): Promise<number> {
  const machine = describeMachine();
  if (production) {
    say('npm run build (the production build the run starts) …');
    execSync('npm run build', { cwd: ROOT, stdio: args.verbose ? 'inherit' : 'ignore' });
  }
  say(`bench: ${database}, ${members} members, ${workers} keep-alive connections, ${seconds} s per operation\nmachine: ${machineLine(machine)}`);
  const product = await measureProduct();

  say('password hashes per login (in-process, 20 SPA logins) …');
  const hashes = await hashesPerLogin(20);
  const budgets = runBudgets(product, hashes);

  const comparisons = [...product.ceilings, product.passkey, product.openidRefresh, product.dpopRefresh, ...product.peer, product.databases, ...(product.logCost ?? []), ...(product.growth ?? [])];
  const login = product.ceilings[0] as Compared;
  const cpuTable = cpuComparisonTable(comparisons, [
    ['one argon2id verification (the loop in the driver, in turns with the password login)', us(sideUs(login, 'b')), '', '', ''],
    ['one ES256 signature (in the driver)', product.signatureUs.toFixed(1), '', '', ''],
  ]);
  // Each comparison's two median rounds, and the median of its rounds' rate ratios on the first side's line: information.
  const figures = markdownTable(
    ['operation (median round)', 'ok/s', 'median of the rounds\' rate ratios', 'p50 ms', 'p99 ms', 'max ms', 'errors'],
    comparisons.flatMap((c) => [
      [c.a.label, c.a.perSecond.toFixed(1), `${c.ratio.toFixed(3)}×`, ms(c.a.summary.p50), ms(c.a.summary.p99), ms(c.a.summary.max), c.a.summary.errors],
      [c.b.label, c.b.perSecond.toFixed(1), '', ms(c.b.summary.p50), ms(c.b.summary.p99), ms(c.b.summary.max), c.b.summary.errors],
    ]),
  );
  const budgetTable = markdownTable(['budget', 'measured', 'verdict'], budgets.map((b) => [b.budget, b.measured, b.verdict]));
  const text = [
    `# Benchmark ${machine.date.slice(0, 10)} on ${database}${production ? ', the production build' : ''}`,
    '',
    `Machine: ${machineLine(machine)}.`,
    ...(production
      ? [
          'Server: the production build (dist/server/main.js) with NODE_ENV=production, its own keys and client secrets, LOG_LEVEL=info (a JSON line per request and per answer, appended to a file), the staging simulators, and a reCAPTCHA siteverify and an SMTP server on this machine. Request logs: a second such server with LOG_LEVEL=warn took turns with it.',
          '',
        ]
      : []),
    `Run: ${members} members seeded with tokens, closed loop of ${workers} keep-alive connections; token response ${product.tokenBytes} bytes. Every figure is CPU per operation: the server's CPU (all its threads, and its own PostgreSQL backends) over the operations it completed, read from /proc around each round; the load driver, other servers and whatever else runs on the machine share its cores, and move its rates, not this. Each comparison: both sides warmed for ${warmupMs / 1000} s, then ${ROUNDS} rounds of ${seconds / 2} s each, the order swapped every round; a ratio is the median of the ${ROUNDS} rounds' ratios. node-oidc-provider 9 with a SQLite store and a request log (bench/peer/), its refresh grant (client_secret_basic, no ID token) in turns with a partner's (Net Answer's confidential client, client_secret_basic, no ID token), not the SPA's public one; the refresh grant on ${database === 'sqlite' ? 'PostgreSQL' : 'SQLite'} on a second server${product.growth ? `; growth: a second server on a database of ${growth} members (restarted on it once the load was on the disk) and the first, both warmed on every operation` : ''}.`,
    '',
    '## Budgets',
    '',
    budgetTable,
    '',
    '## CPU per operation',
    '',
    cpuTable,
    '',
    cpuByThreadTable(comparisons.flatMap((c) => [c.a, c.b])),
    '',
    '## Rates and latencies (information)',
    '',
    figures,
    '',
    ...peerSessionsLines(product.peerSessions),
    lighthouseLines(product.lighthouse),
    '',
    errorTable(product.errors),
    '',
  ].join('\n');
  say(`\n${text}`);

  mkdirSync(args.out, { recursive: true });
  // Several runs a day are kept apart: the date and the UTC time of the start name the files.
  const base = `${args.out}${machine.date.slice(0, 16).replace(':', '')}-${production ? 'production-' : ''}${database}`;
  writeFileSync(`${base}.md`, text);
  const lighthouse = product.lighthouse instanceof Error ? { error: product.lighthouse.message } : product.lighthouse;
  const json = {
    machine,
    database,
    members,
    growth,
    workers,
    seconds,
    rounds: ROUNDS,
    tokenBytes: product.tokenBytes,
    ceilings: product.ceilings,
    passkey: product.passkey,
    openid_refresh: product.openidRefresh,
    dpop_refresh: product.dpopRefresh,
    challenge_rows: product.challengeRows,
    growth_comparison: product.growth,
    production,
    log_cost: product.logCost,
    peer: product.peer,
    peer_sessions: product.peerSessions,
    databases: product.databases,
    es256_signature_us: product.signatureUs,
    request_log: product.requestLog,
    hashes,
    lighthouse,
    budgets,
  };
  writeFileSync(`${base}.json`, `${JSON.stringify(json, null, 2)}\n`);
  say(`written: ${base}.md, ${base}.json`);
  return 0;
}

runMain(main);
