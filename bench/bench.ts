/**
 * The benchmark of docs/performance.md: the hot paths of the product (password login, refresh grant,
 * introspection, /api/user, the card list), each taking turns with one of two ceilings on the same
 * machine (a bare Fastify route, a bare argon2id verify loop), and the budgets as ratios of the two;
 * the passkey sign-in in turns with the password login, and its challenge rows per sign-in; the
 * refresh grant with `openid` (a new ID token signed each time) in turns with the plain refresh grant;
 * the same paths on a second server whose database holds `--growth` members, in turns with the
 * first; the password hashes per login; the JavaScript of the SPA's login route; Lighthouse on the
 * login and Top pages. `--seconds` is each source's time per comparison, in rounds of half of it.
 * `--production` runs the production build (`npm run build`, done first) as docs/operations.md
 * configures it, request logs on, and adds their cost: refresh and introspection in turns with a
 * second server without them. Run it with
 *
 *   npm run bench [-- --database sqlite|postgres] [--production] [--members 1000] [--growth 1000000] [--seconds 10] [--workers 16] [--no-lighthouse]
 *
 * It prints a table and writes it to bench/results/<date>T<hhmm>-[production-]<database>.md and .json. It
 * needs the SPA build (npm run build:web) for the size and Lighthouse figures.
 */
import { execSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { boundBudget, growthBudget, notMeasured, ratioBudget, type BudgetResult } from './lib/budgets.ts';
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
import { ROUNDS, takeTurns, type Turns } from './lib/turns.ts';
import { describeMachine, machineLine } from './lib/machine.ts';
import { MemberPool, mixedJobs } from './lib/members.ts';
import { errorTable, markdownTable, ms } from './lib/report.ts';
import { threadCpu, type ThreadCpu } from './lib/thread-cpu.ts';
import { startPeerProvider } from './lib/peer.ts';
import { seedMembers } from './lib/seed.ts';
import { startBenchSystem } from './lib/system.ts';
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
 * them, and `ceiling` the ceiling their budget is a share of (the login's is the argon2id loop, the
 * others' the bare route).
 */
const PHASES: readonly { op: OperationName; label: string; ceiling: CeilingName }[] = [
  { op: 'authorize', label: 'login (authorize POST)', ceiling: 'argon2' },
  { op: 'refresh', label: 'refresh grant', ceiling: 'bare' },
  { op: 'introspect', label: 'introspection (SIAP004)', ceiling: 'bare' },
  { op: 'user', label: '/api/user', ceiling: 'bare' },
  { op: 'cards', label: 'card list', ceiling: 'bare' },
];

/** The operations whose request-log cost is measured, and which are measured against node-oidc-provider's. */
const LOGGED_PHASES = PHASES.filter((p) => p.op === 'refresh' || p.op === 'introspect');

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
const CEILING_LABEL: Record<CeilingName, string> = { bare: 'ceiling: bare Fastify', argon2: 'ceiling: argon2id verify' };

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
  /** The production run: the refresh grant and introspection (a) in turns with node-oidc-provider's (b). */
  peer: Compared[] | undefined;
  /** The production run: node-oidc-provider's sessions, minted and still in its store at the end (bench/lib/peer.ts). */
  peerSessions: { minted: number; live: number } | undefined;
  /** The production run's request log lines, and how many name their request id. */
  requestLog: { lines: number; withId: number } | undefined;
  tokenBytes: number;
  errors: Map<string, number>;
  lighthouse: PageScore[] | Error | undefined;
}

/** Each product operation in turns with its ceiling (the bare route answering as many bytes as a token response). */
async function measureAgainstCeilings(http: HttpClient, pool: MemberPool, tokenBytes: number, errors: Map<string, number>, serverPid: number): Promise<Compared[]> {
  say(`each operation in turns with its ceiling (token response ${tokenBytes} bytes) …`);
  const ceilings: Record<CeilingName, Ceiling> = { bare: await bareFastify({ bytes: tokenBytes, workers }), argon2: await argon2Verify() };
  try {
    const compared: Compared[] = [];
    for (const { op, label, ceiling } of PHASES) {
      const ceilingPid = ceilings[ceiling].pid;
      // The CPU by process of both sides (thread-cpu.ts); the argon2id loop runs in the driver itself.
      const turns = await takeTurns(
        { label, next: mixedJobs(http, pool, { [op]: 1 }), cpu: () => threadCpu(serverPid) },
        { label: `${CEILING_LABEL[ceiling]}, in turns with ${label}`, next: ceilings[ceiling].next, ...(ceilingPid ? { cpu: () => threadCpu(ceilingPid) } : {}) },
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

async function measureInTurns(http: HttpClient, pool: MemberPool, errors: Map<string, number>, p: Pairing, cpu?: () => ThreadCpu): Promise<Compared> {
  say(`${p.label} in turns with ${p.against.label} …`);
  const turns = await takeTurns(
    { label: p.label, next: mixedJobs(http, pool, { [p.op]: 1 }), ...(cpu ? { cpu } : {}) },
    { label: `${p.against.label}, in turns with the ${p.label}`, next: mixedJobs(http, pool, { [p.against.op]: 1 }), ...(cpu ? { cpu } : {}) },
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
const PASSKEY_PAIRING: Pairing = { op: 'passkeySignIn', label: PASSKEY_LABEL, against: { op: 'authorize', label: 'login (authorize POST)' } };

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
 * The product's refresh grant and introspection in turns with node-oidc-provider's (bench/lib/peer.ts):
 * its in-memory store, refresh rotation on, no request logs, as it ships; the same driver and
 * connections; the product as this run starts it (the production build with its request logs).
 */
async function measureAgainstPeer(
  http: HttpClient,
  pool: MemberPool,
  errors: Map<string, number>,
): Promise<{ compared: Compared[]; sessions: { minted: number; live: number } }> {
  say('node-oidc-provider beside the product: refresh and introspection in turns …');
  const peer = await startPeerProvider(members);
  const peerHttp = httpClient(peer.origin, workers);
  try {
    const compared: Compared[] = [];
    for (const { op, label } of LOGGED_PHASES) {
      const peerOp = op === 'refresh' ? 'refresh' : 'introspect';
      const turns = await takeTurns(
        { label, next: mixedJobs(http, pool, { [op]: 1 }) },
        { label: `node-oidc-provider ${peerOp === 'refresh' ? 'refresh grant' : 'introspection'}, in turns with ${label}`, next: peer.jobs(peerHttp, peerOp) },
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

/** A system under load with its members: the small database or the grown one. */
interface Side {
  http: HttpClient;
  pool: MemberPool;
}

/**
 * Two servers measured side by side (growth: the small database and the grown one; request logs:
 * on and off), taking turns in short rounds of each operation. Measured one after the other,
 * minutes apart, two states differed by more than the 20% growth budget from the machine's drift alone.
 */
async function measureSideBySide(a: Side & { name: string }, b: Side & { name: string }, errors: Map<string, number>, phases: readonly { op: OperationName; label: string }[]): Promise<Compared[]> {
  const compared: Compared[] = [];
  // Both servers warmed on every operation first: the second was just (re)started, and in the run
  // of 08:09 UTC the grown one's first rounds of /api/user were a third slower than its last (a cold start, not the size).
  for (const { op } of phases) {
    for (const side of [a, b]) await closedLoop({ workers, durationMs: durationMs / 2, next: mixedJobs(side.http, side.pool, { [op]: 1 }) });
  }
  for (const { op, label } of phases) {
    const turns = await takeTurns(
      { label: `${label}, ${a.name}`, next: mixedJobs(a.http, a.pool, { [op]: 1 }) },
      { label: `${label}, ${b.name}`, next: mixedJobs(b.http, b.pool, { [op]: 1 }) },
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
 * run's LOG_LEVEL (warn: the side without request logs).
 */
async function startSecondSide(o: { fill: boolean; logLevel?: 'info' | 'warn' }): Promise<{ side: Side; logFile: string | undefined; stop: () => Promise<void> }> {
  const bench = await startBenchSystem(database, { quiet: !args.verbose, production, ...(o.logLevel ? { logLevel: o.logLevel } : {}) });
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
      side: { http, pool: new MemberPool(seeded) },
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
    const ceilings = await measureAgainstCeilings(http, pool, tokenBytes, errors, bench.system.pid());
    const passkey = await measureInTurns(http, pool, errors, PASSKEY_PAIRING);
    // With the server's CPU by thread: its signing runs in a worker thread (modules/oidc/jwt-signer.ts).
    const openidRefresh = await measureInTurns(http, pool, errors, OPENID_REFRESH_PAIRING, () => threadCpu(bench.system.pid()));
    const dpopRefresh = await measureInTurns(http, pool, errors, DPOP_REFRESH_PAIRING, () => threadCpu(bench.system.pid()));
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
    const peer = production ? await measureAgainstPeer(http, pool, errors) : undefined;
    let growthRows: ProductRun['growth'];
    if (growth > members) {
      const grown = await startSecondSide({ fill: true });
      try {
        growthRows = await measureSideBySide({ http, pool, name: `${members} members` }, { ...grown.side, name: `${growth} members` }, errors, PHASES);
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
      peer: peer?.compared,
      peerSessions: peer?.sessions,
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
    budget: 'SPA: login route ≤ 120 KiB gzip JavaScript',
    value: js.gzipBytes,
    bound: 120 * 1024,
    kind: 'max',
    shown: `${(js.gzipBytes / 1024).toFixed(1)} KiB in ${js.files.length} files`,
  });
  const lhBudget = 'SPA: Lighthouse 12 mobile performance ≥ 95 (login, Top)';
  if (lighthouse === undefined) return [size, notMeasured(lhBudget, production ? 'not with --production (the same SPA build: run the bench without it)' : 'skipped (--no-lighthouse)')];
  if (lighthouse instanceof Error) return [size, { budget: lhBudget, measured: `failed: ${lighthouse.message}`, verdict: 'falls short' }];
  const lowest = Math.min(...lighthouse.map((p) => p.score));
  return [size, boundBudget({ budget: lhBudget, value: lowest, bound: 95, kind: 'min', shown: lighthouse.map((p) => `${p.page} ${p.score} (median of ${(p.runs ?? [p.score]).join(', ')})`).join('; ') })];
}

/** The Lighthouse metrics behind the scores (ms; CLS unitless), for reading a score that falls short. */
function lighthouseLines(lighthouse: ProductRun['lighthouse']): string {
  if (!Array.isArray(lighthouse)) return '';
  return lighthouse
    .map((p) => `Lighthouse ${p.page} (${p.score}): ${Object.entries(p.metrics).map(([k, v]) => `${k} ${k === 'cumulative-layout-shift' ? v.toFixed(3) : Math.round(v)}`).join(', ')}.`)
    .join('\n');
}

/**
 * The server's CPU per refresh with and without `openid`, by thread (the median of the rounds' figures): the rate's ratio
 * counts every thread of a machine whose cores the load driver shares, while a node that the network
 * loads is bound by its main thread (docs/performance.md).
 */
/**
 * Where each operation's CPU goes, per operation (the medians of its rounds): the server's main
 * thread, its other threads, PostgreSQL's processes and the load driver, all on this machine's cores;
 * with the bare route's, measured in the refresh grant's turns, beside them.
 */
function cpuTable(ceilings: Compared[]): string {
  const rows = ceilings.flatMap((c) => (c.a.cpu ? [{ label: c.label, cpu: c.a.cpu }] : []));
  const bare = ceilings.find((c) => c.label === 'refresh grant')?.b;
  if (bare?.cpu) rows.push({ label: 'the bare route (in the refresh grant\'s turns)', cpu: bare.cpu });
  if (rows.length === 0) return '';
  const us = (x: number) => x.toFixed(0);
  return [
    'CPU per operation in µs (the median of the rounds), by process: all of them share the machine\'s cores.',
    '',
    markdownTable(
      ['operation', 'server main thread', 'server other threads', 'PostgreSQL', 'load driver', 'all'],
      rows.map(({ label, cpu: c }) => [label, us(c.mainUs), us(c.otherUs), us(c.databaseUs), us(c.driverUs), us(c.mainUs + c.otherUs + c.databaseUs + c.driverUs)]),
    ),
  ].join('\n');
}

/** A refresh beside the plain one: the server's CPU per operation by thread, and what `added` (the ID token, the DPoP proof) adds to it. */
function cpuLine(c: Compared, added: string): string {
  if (!c.a.cpu || !c.b.cpu) return '';
  const us = (x: number) => `${x.toFixed(0)} µs`;
  return `Server CPU per operation (the median of the rounds): ${c.a.label}: main thread ${us(c.a.cpu.mainUs)}, other threads ${us(c.a.cpu.otherUs)}; plain refresh: main thread ${us(c.b.cpu.mainUs)}, other threads ${us(c.b.cpu.otherUs)}. ${added} adds ${((c.a.cpu.mainUs / c.b.cpu.mainUs - 1) * 100).toFixed(1)}% to the main thread's CPU per refresh, ${(((c.a.cpu.mainUs + c.a.cpu.otherUs) / (c.b.cpu.mainUs + c.b.cpu.otherUs) - 1) * 100).toFixed(1)}% to the server's.`;
}

/**
 * How many of node-oidc-provider's sessions its store still held: its default in-memory store evicts
 * most of those minted (bench/lib/peer.ts), and it serves the 70 to 80 left; fewer than the
 * connections would leave its closed loop short of sessions and understate its rate.
 */
function peerSessionsLines(s: ProductRun['peerSessions']): string[] {
  if (!s) return [];
  const short = s.live < workers ? ` Fewer than the ${workers} connections: its rates above are short of sessions, not of CPU.` : '';
  return [
    `node-oidc-provider's sessions: ${s.live} of the ${s.minted} minted were still in its store at the end. Its default in-memory store is an LRU of 1,000 entries (oidc-provider's lib/adapters/memory_adapter.js), several a session; a session evicted from it answers its refresh with invalid_grant and is retired, most of them in the warm-up, which is not counted.${short}`,
    '',
  ];
}

/** The production run's figures against node-oidc-provider: the product's refresh and introspection each at least twice its rate. */
function peerBudgets(product: ProductRun): BudgetResult[] {
  if (!product.peer) return [notMeasured('refresh and introspection ≥ 2× node-oidc-provider', 'only with --production')];
  return product.peer.map((c) =>
    ratioBudget({ budget: `${c.label} ≥ 2× node-oidc-provider's`, product: c.a.summary, productPerSecond: c.a.perSecond, ceilingPerSecond: c.b.perSecond, ratio: c.ratio, share: 2 }),
  );
}

/** The production run's request-log budgets: each logged operation at least 90% of its rate without logs, and every request line with its id. */
function logBudgets(product: ProductRun): BudgetResult[] {
  if (!product.logCost || !product.requestLog) return [notMeasured('request logs cost ≤ 10% of refresh and introspection', 'only with --production')];
  const { lines, withId } = product.requestLog;
  return [
    ...product.logCost.map((c) =>
      ratioBudget({ budget: `${c.label} with request logs ≥ 90% of without`, product: c.a.summary, productPerSecond: c.a.perSecond, ceilingPerSecond: c.b.perSecond, ratio: c.ratio, share: 0.9 }),
    ),
    boundBudget({ budget: 'every request log line names its request id', value: lines > 0 ? lines - withId : Number.NaN, bound: 0, kind: 'exactly', shown: `${withId} of ${lines} request log lines carry their reqId` }),
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
  const [login, refreshed, introspected] = product.ceilings as [Compared, Compared, Compared];
  // Growth compares the grown side (b) with the small one (a): its change is b's rate over a's, minus 1.
  const change = (c: Compared) => 1 / c.ratio - 1;
  const ratio = (c: Compared) => ({ product: c.a.summary, productPerSecond: c.a.perSecond, ceilingPerSecond: c.b.perSecond, ratio: c.ratio });

  say('password hashes per login (in-process, 20 SPA logins) …');
  const hashes = await hashesPerLogin(20);
  const budgets: BudgetResult[] = [
    ratioBudget({ budget: 'login ≥ 85% of the argon2id ceiling', ...ratio(login), share: 0.85 }),
    boundBudget({ budget: 'exactly one password hash per login', value: hashes, bound: 1, kind: 'exactly', shown: `${hashes} argon2id verifications per login (login step + authorize step)` }),
    ratioBudget({ budget: 'refresh ≥ 12% of bare Fastify, p99 < 25 ms', ...ratio(refreshed), share: 0.12, p99Ms: 25 }),
    ratioBudget({ budget: 'introspection ≥ 30% of bare Fastify, p99 < 25 ms', ...ratio(introspected), share: 0.3, p99Ms: 25 }),
    ratioBudget({ budget: 'passkey sign-in ≥ 10× the password login, p99 < 50 ms', ...ratio(product.passkey), share: 10, p99Ms: 50 }),
    ratioBudget({
      budget: 'refresh with openid within 15% of the refresh without it, token endpoint p99 < 25 ms',
      ...ratio(product.openidRefresh),
      share: 0.85,
      p99Ms: 25,
    }),
    boundBudget({
      budget: 'one challenge row written and used up per passkey sign-in',
      value: product.challengeRows.live === 0 ? product.challengeRows.written : Number.NaN,
      bound: 1,
      kind: 'exactly',
      shown: `${product.challengeRows.written} rows written and ${product.challengeRows.live} left unused per sign-in (${product.challengeRows.signIns} sign-ins)`,
    }),
    ...logBudgets(product),
    ...peerBudgets(product),
    product.growth
      ? growthBudget({ budget: `growth: ${members} vs ${growth} members within 20%`, changes: product.growth.map((c) => ({ label: c.label, change: change(c) })), share: 0.2 })
      : notMeasured('growth: 1,000 vs 1,000,000 members within 20%', 'skipped (--growth 0)'),
    ...spaBudgets(product.lighthouse),
  ];

  // Each comparison's two median rounds, and the median of its rounds' ratios on the first side's line.
  const lines = (cs: readonly Compared[], shown: (c: Compared) => string) =>
    cs.flatMap((c) => [
      { row: c.a, ratio: shown(c) },
      { row: c.b, ratio: '' },
    ]);
  const all = [
    ...lines(product.ceilings, (c) => `${(c.ratio * 100).toFixed(1)}% of its ceiling`),
    ...lines([product.passkey], (c) => `${c.ratio.toFixed(1)}× the password login`),
    ...lines([product.openidRefresh, product.dpopRefresh], (c) => `${(c.ratio * 100).toFixed(1)}% of the plain refresh`),
    ...lines(product.logCost ?? [], (c) => `${(c.ratio * 100).toFixed(1)}% of the rate without them`),
    ...lines(product.peer ?? [], (c) => `${c.ratio.toFixed(2)}× node-oidc-provider`),
    ...lines(product.growth ?? [], (c) => `${growth} members: ${(change(c) * 100).toFixed(1)}%`),
  ];
  const figures = markdownTable(
    ['operation (median round)', 'ok/s', 'median of the rounds\' ratios', 'p50 ms', 'p99 ms', 'max ms', 'errors'],
    all.map(({ row: r, ratio: shown }) => [r.label, r.perSecond.toFixed(1), shown, ms(r.summary.p50), ms(r.summary.p99), ms(r.summary.max), r.summary.errors]),
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
    `Run: ${members} members seeded with tokens, closed loop of ${workers} keep-alive connections; token response ${product.tokenBytes} bytes. Each operation took turns with its ceiling (the login with the argon2id loop, the others with the bare route), both warmed for ${warmupMs / 1000} s, then in ${ROUNDS} rounds of ${seconds / 2} s each, the order swapped every round; a ratio is the median of the ${ROUNDS} rounds' ratios${product.growth ? `. Then growth: a second server on a database of ${growth} members (restarted on it once the load was on the disk) and the first, both warmed on every operation, then in turns in the same way` : ''}.`,
    '',
    figures,
    '',
    cpuTable(product.ceilings),
    '',
    cpuLine(product.openidRefresh, 'The ID token'),
    '',
    cpuLine(product.dpopRefresh, 'The DPoP proof'),
    '',
    budgetTable,
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
