import { spawn } from 'node:child_process';
import { parseArgs } from 'node:util';
import { mkdtempSync } from 'node:fs';
import { type Member, type OperationName } from './lib/flows.ts';
import { httpClient } from './lib/http.ts';
import { closedLoop } from './lib/load.ts';
import { MemberPool, mixedJobs } from './lib/members.ts';
import { seedMembers } from './lib/seed.ts';
const { values } = parseArgs({ options: { op: { type: 'string', default: 'refresh' }, seconds: { type: 'string', default: '8' }, noprof: { type: 'boolean', default: false } } });
const dir = mkdtempSync('/tmp/profdb-');
const port = 18000 + Math.floor(Math.random() * 1000);
const origin = `http://localhost:${port}`;
const databaseUrl = `sqlite:${dir}/sso.db`;
const child = spawn(process.execPath, [...(!values.noprof ? ['--cpu-prof', '--cpu-prof-dir=/tmp/prof'] : []), '--import', 'tsx', 'apps/server/src/main.ts'], {
  env: { ...process.env, NODE_ENV: 'development', PORT: String(port), HOST: '127.0.0.1', PUBLIC_ORIGIN: origin, DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn', SMTP_SINK_PORT: '0' },
  stdio: 'inherit',
});
for (;;) { try { if ((await fetch(`${origin}/api/health`)).ok) break; } catch {} await new Promise((r) => setTimeout(r, 200)); }
const http = httpClient(origin, 16);
const seeded = await seedMembers({ databaseUrl, origin, count: 1000 });
const pool = new MemberPool(seeded as Member[]);
const next = mixedJobs(http, pool, { [values.op as OperationName]: 1 });
await closedLoop({ workers: 16, durationMs: 2000, next });
const r = await closedLoop({ workers: 16, durationMs: Number(values.seconds) * 1000, next });
const s = r.recorder.summary();
console.log(JSON.stringify(s.map((x) => ({ op: x.op, okps: Math.round(x.ok / (r.durationMs / 1000)), p99: x.p99, errors: x.errors }))));
await http.close();
child.kill('SIGTERM');
await new Promise((r) => child.once('exit', r));
