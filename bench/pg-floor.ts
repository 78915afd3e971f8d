/**
 * What the refresh grant's database work costs on PostgreSQL with no server in the way
 * (docs/performance.md, "PostgreSQL's refresh: the floor"). The budget holds the node's and the
 * backends' CPU per refresh on PostgreSQL to 1.5× the server's on SQLite; the node does the same work
 * on either, so what PostgreSQL may add is about half a SQLite refresh. This runs the refresh grant's
 * two database steps as the token service makes them (tokens.ts `findTokenOfClient`, then `rotatePair`:
 * on PostgreSQL the grant's read with the client's flag, then the rotation and its successor in one
 * statement) from this process, through the product's Kysely and node-postgres pool, on a migrated
 * PostgreSQL database that commits as production does (`synchronous_commit` on), against members
 * seeded as `npm run bench` seeds them. In the same rounds, in turns: two trivial statements on the
 * same pool (what two round trips cost, with nothing to do in them), the same two steps on a SQLite
 * file in this process, and the same two steps on a second PostgreSQL database whose commits do not
 * wait for the disk (`synchronous_commit` off), as SQLite's do not at the server's `synchronous =
 * normal` (decision 0008; the two are not quite alike: a crash of the process loses no SQLite commit,
 * a crash of PostgreSQL can lose its last fraction of a second of them; decision 0046 keeps
 * production's on). Each figure is CPU per operation, this process's (Kysely, the driver, the loop)
 * apart from PostgreSQL's backends of that database (bench/lib/thread-cpu.ts), the median of the
 * rounds; the last two lines are what PostgreSQL adds to a refresh over SQLite, with production's
 * commits and without their wait, read off the same rounds. The server's WAL writer, which takes over
 * the flush when a commit does not wait for it, is shown apart and counted in no sum: it serves every
 * database of the server. Run it with
 *
 *   npm run bench:pg-floor [-- --seconds 4] [--rounds 5] [--workers 16] [--members 1000]
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { createTestDb, type TestDb } from '@sso/server/test-support';
import { median } from './lib/budgets.ts';
import { positiveNumber, runMain, say } from './lib/cli.ts';
import { closedLoop, type NextJob } from './lib/load.ts';
import { describeMachine, machineLine } from './lib/machine.ts';
import { markdownTable } from './lib/report.ts';
import { refreshReplay, replayDatabase, trivialRoundTrips } from './lib/refresh-replay.ts';
import { cpuPerOp, postgresDatabase, threadCpu, walWriterMs } from './lib/thread-cpu.ts';

const { values: args } = parseArgs({
  options: {
    seconds: { type: 'string', default: '4' },
    rounds: { type: 'string', default: '5' },
    workers: { type: 'string', default: '16' },
    members: { type: 'string', default: '1000' },
    out: { type: 'string', default: new URL('./results/', import.meta.url).pathname },
  },
});

interface Side {
  label: string;
  next: NextJob;
  /** The PostgreSQL database whose backends count, none on SQLite. */
  database?: string;
}

interface Figure {
  node: number[];
  backends: number[];
  /** The server's WAL writer, shared by all its databases (thread-cpu.ts walWriterMs): information, in no sum. */
  walWriter: number[];
}

async function main(): Promise<number> {
  const durationMs = positiveNumber('seconds', args.seconds) * 1000;
  const rounds = Math.round(positiveNumber('rounds', args.rounds));
  const workers = Math.round(positiveNumber('workers', args.workers));
  const members = Math.round(positiveNumber('members', args.members));
  const machine = describeMachine();
  const made: TestDb[] = [];
  const make = async (...a: Parameters<typeof createTestDb>) => {
    const testDb = await createTestDb(...a);
    made.push(testDb);
    return testDb;
  };
  try {
    const pg = await make('postgres', { durable: true });
    // A test database's commits do not wait for the WAL's flush (test-db.ts).
    const pgUnflushed = await make('postgres');
    const lite = await make('sqlite');
    say(`seeding ${members} members on each database …`);
    const pgMembers = await replayDatabase(pg, members);
    const unflushedMembers = await replayDatabase(pgUnflushed, members);
    const liteMembers = await replayDatabase(lite, members);
    const database = postgresDatabase(pg.url);
    const sides: Side[] = [
      { label: 'refresh grant\'s two steps, PostgreSQL', next: refreshReplay(pg.db.kysely, pgMembers), database },
      { label: 'two trivial statements, PostgreSQL', next: trivialRoundTrips(pg.db.kysely), database },
      { label: 'refresh grant\'s two steps, SQLite (in this process)', next: refreshReplay(lite.db.kysely, liteMembers) },
      {
        label: 'refresh grant\'s two steps, PostgreSQL, synchronous_commit off (no wait for the disk, as SQLite\'s normal)',
        next: refreshReplay(pgUnflushed.db.kysely, unflushedMembers),
        database: postgresDatabase(pgUnflushed.url),
      },
    ];
    const figures = new Map<Side, Figure>(sides.map((s) => [s, { node: [], backends: [], walWriter: [] }]));
    for (const s of sides) await closedLoop({ durationMs: 1000, workers, next: s.next });
    for (let round = 1; round <= rounds; round++) {
      // Each round in another order, so that a change of the machine's load falls on each side alike.
      const order = sides.map((_, i) => sides[(i + round) % sides.length] as Side);
      for (const s of order) {
        // The WAL writer read first and last, so that its scan of /proc is outside this process's measured stretch.
        const walBefore = walWriterMs();
        const before = threadCpu(process.pid, s.database);
        const r = await closedLoop({ durationMs, workers, next: s.next });
        const [after, walAfter] = [threadCpu(process.pid, s.database), walWriterMs()];
        const summary = r.recorder.summary().find((x) => x.op !== 'all');
        if (!summary || summary.errors > 0 || summary.ok === 0) throw new Error(`${s.label}: ${summary?.errors ?? 0} errors, ${summary?.ok ?? 0} done (${[...r.recorder.errors.keys()].join(', ')})`);
        const c = cpuPerOp(before, after, summary.ok);
        const f = figures.get(s) as Figure;
        f.node.push(c.mainUs + c.otherUs);
        f.backends.push(c.databaseUs);
        f.walWriter.push(((walAfter - walBefore) * 1000) / summary.ok);
        say(`round ${round}: ${s.label}: this process ${(c.mainUs + c.otherUs).toFixed(0)} µs, PostgreSQL ${c.databaseUs.toFixed(0)} µs (WAL writer ${(f.walWriter.at(-1) as number).toFixed(0)} µs) per operation`);
      }
    }
    const [pgRefresh, liteRefresh, unflushedRefresh] = [0, 2, 3].map((i) => figures.get(sides[i] as Side)) as [Figure, Figure, Figure];
    // Per round: PostgreSQL's two steps (this process and the backends) less SQLite's, the same round's.
    const roundsAdded = (f: Figure) => f.node.map((n, i) => n + (f.backends[i] as number) - (liteRefresh.node[i] as number));
    const row = (label: string, f: Figure) => {
      const [node, backends] = [median(f.node), median(f.backends)];
      return [label, `${node.toFixed(0)} µs`, `${backends.toFixed(0)} µs`, `${(node + backends).toFixed(0)} µs`, `${median(f.walWriter).toFixed(0)} µs`];
    };
    const [added, addedUnflushed] = [roundsAdded(pgRefresh), roundsAdded(unflushedRefresh)];
    const [more, moreUnflushed] = [median(added), median(addedUnflushed)];
    const list = (xs: number[]) => xs.map((x) => x.toFixed(0)).join(', ');
    const text = [
      `# PostgreSQL's refresh: the floor, ${machine.date.slice(0, 16)} UTC`,
      '',
      `Machine: ${machineLine(machine)}.`,
      `Run: \`npm run bench:pg-floor\` (bench/pg-floor.ts): the refresh grant's two database steps as the token endpoint takes them (tokens.ts findTokenOfClient, rotatePair), from this process through the product's Kysely, without the server; PostgreSQL with synchronous_commit on (production's) and on a second database with it off (commits that do not wait for the disk, as SQLite's at synchronous = normal), SQLite a file in this process; ${members} members seeded on each, closed loop of ${workers}, ${rounds} rounds of ${durationMs / 1000} s, each round in another order.`,
      '',
      markdownTable(
        ['CPU per operation (median of the rounds)', 'this process', 'PostgreSQL backends', 'both', 'WAL writer (the server\'s, in no sum)'],
        [
          ...sides.map((side) => row(side.label, figures.get(side) as Figure)),
          ['what PostgreSQL adds to a refresh over SQLite (each round\'s difference, then the median)', '', '', `${more.toFixed(0)} µs`, ''],
          ['the same with synchronous_commit off', '', '', `${moreUnflushed.toFixed(0)} µs`, ''],
        ],
      ),
      '',
      `Each round's difference, in the order run: ${list(added)} µs; with synchronous_commit off ${list(addedUnflushed)} µs.`,
      '',
      'The WAL writer writes and flushes the WAL of all the server\'s databases: with synchronous_commit off it does the flush that a committing backend does otherwise, so its column says how much of the backends\' saving moved to it. Other work on the same PostgreSQL server counts in it too.',
      '',
      `The budget holds a refresh on PostgreSQL (node and backends) to 1.5× one on SQLite through the server. The server's own work is the same on both, so its ratio is at least 1 + ${more.toFixed(0)} µs / (SQLite's refresh through the server): the budget could be met only by a SQLite refresh of ${(2 * more).toFixed(0)} µs or more. With commits that do not wait for the disk either (synchronous_commit off), only by one of ${(2 * moreUnflushed).toFixed(0)} µs or more.`,
      '',
    ].join('\n');
    say(`\n${text}`);
    mkdirSync(args.out, { recursive: true });
    const file = `${args.out}${machine.date.slice(0, 16).replace(':', '')}-pg-floor.md`;
    writeFileSync(file, text);
    say(`written: ${file}`);
    return 0;
  } finally {
    await Promise.allSettled(made.map((d) => d.drop()));
  }
}

runMain(main);
