// Preloaded into the server process by bench/statements.ts on SQLite (NODE_OPTIONS=--import, as
// heap-probe.mjs is): counts every statement better-sqlite3 runs on the main thread (a prepared
// statement's run, get, all or iterate, and Database#exec, `begin` and `commit` included), with its
// SQL. On SIGWINCH it writes the counts since the previous signal to BENCH_STATEMENTS_FILE and starts
// again from zero. SQLite has no round trips: its statements are calls within the process.
// Plain JavaScript: it loads before tsx does. Nothing else in the server changes.
import { renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { isMainThread } from 'node:worker_threads';

const file = process.env.BENCH_STATEMENTS_FILE;
if (file && isMainThread) {
  // The server's own copy of the driver: resolved from where it runs (the repository, or dist/ of a build).
  const Database = createRequire(`${process.cwd()}/`)('better-sqlite3');
  let sql = [];
  const counted = (run) =>
    function (...args) {
      sql.push(this.source);
      return run.apply(this, args);
    };
  const scratch = new Database(':memory:');
  const Statement = Object.getPrototypeOf(scratch.prepare('select 1'));
  scratch.close();
  for (const method of ['run', 'get', 'all', 'iterate']) Statement[method] = counted(Statement[method]);
  const exec = Database.prototype.exec;
  Database.prototype.exec = function (source) {
    sql.push(source);
    return exec.call(this, source);
  };
  let seq = 0;
  process.on('SIGWINCH', () => {
    writeFileSync(`${file}.tmp`, JSON.stringify({ seq: ++seq, statements: sql.length, sql }));
    renameSync(`${file}.tmp`, file);
    sql = [];
  });
}
