import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { promisify } from 'node:util';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../config.ts';
import { withTestApp } from '../test-support/test-app.ts';
import { logDestination } from './log-destination.ts';

const run = promisify(execFile);

/** The request log (http/request-log.ts, docs/operations.md "Logs"): one flat line per request, under its request id. */
describe('the request log', () => {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  const t = withTestApp('sqlite', {}, { logStream: stream });
  const logged = () => lines.flatMap((l) => l.split('\n')).filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);

  it('writes one line per request when it is answered: method, URL with the secret query values redacted, address, status, milliseconds, request id', async () => {
    lines.length = 0;
    const health = await t.app.inject({ method: 'GET', url: '/api/health', remoteAddress: '203.0.113.9' });
    expect(health.statusCode).toBe(200);
    await t.app.inject({ method: 'GET', url: '/content/recover/password?onetime_token=secret-token-value&client_id=SIAP009' });
    await t.app.inject({ method: 'POST', url: '/api/no-such-route' });
    const [first, second, third, ...rest] = logged();
    expect(rest).toEqual([]);
    expect(first).toMatchObject({ level: 30, msg: 'request completed', method: 'GET', url: '/api/health', ip: '203.0.113.9', status: 200 });
    expect(first?.reqId).toMatch(/^[0-9a-f-]{36}$/);
    expect(typeof first?.ms).toBe('number');
    expect(second).toMatchObject({ url: '/content/recover/password?onetime_token=[redacted]&client_id=SIAP009' });
    expect(JSON.stringify(second)).not.toContain('secret-token-value');
    expect(third).toMatchObject({ method: 'POST', url: '/api/no-such-route', status: 404 });
    expect(new Set([first?.reqId, second?.reqId, third?.reqId]).size).toBe(3);
    expect(logged().some((l) => l.msg === 'incoming request')).toBe(false);
  });
});

/** The log's buffered destination (http/log-destination.ts): lines are written in batches, within a second, and at exit. */
describe('the log destination', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sso-log-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('holds a quiet server\'s line back at most the flush interval', async () => {
    const file = join(dir, 'quiet.log');
    // A second's interval: a loaded machine may run the 20 ms timer late, but not a whole second late.
    const out = logDestination(file, 1_000);
    const log = pino({ base: undefined }, out.stream);
    log.info({ n: 1 }, 'one line');
    // The file is opened asynchronously: on a loaded machine it may not exist yet, which is nothing written.
    const written = () => (existsSync(file) ? readFileSync(file, 'utf8') : '');
    await new Promise((r) => setTimeout(r, 20));
    // Buffered: not yet written (one line is far under the buffer's size).
    expect(written()).toBe('');
    await expect.poll(written, { timeout: 5_000, interval: 20 }).toContain('"msg":"one line"');
    out.close();
  });

  it('writes every line whole and in order, Japanese text too, over many buffers and writes', async () => {
    const file = join(dir, 'many.log');
    const out = logDestination(file, 60_000);
    const log = pino({ base: undefined }, out.stream);
    const text = 'ＩＤまたはパスワードが正しくありません。';
    // About 150 bytes a line: some 300 KB, several times the buffer and the most written at once.
    const count = 2_000;
    for (let i = 0; i < count; i++) log.info({ i, text }, '一行');
    out.close();
    const lines = () => (existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : []);
    await expect.poll(() => lines().length, { timeout: 5_000, interval: 20 }).toBe(count);
    const parsed = lines().map((l) => JSON.parse(l) as { i: number; text: string; msg: string });
    expect(parsed.map((l) => l.i)).toEqual(Array.from({ length: count }, (_, i) => i));
    expect(parsed.every((l) => l.text === text && l.msg === '一行')).toBe(true);
  });

  it('writes what is buffered when the process exits (to a descriptor already open, as stdout is)', async () => {
    const file = join(dir, 'exit.log');
    const script = `
      import { openSync } from 'node:fs';
      import pino from 'pino';
      import { logDestination } from './apps/server/src/http/log-destination.ts';
      const log = pino({ base: undefined }, logDestination(openSync(${JSON.stringify(file)}, 'a'), 60_000).stream);
      for (let i = 0; i < 3; i++) log.info({ i }, 'before exit');
      process.exit(3);
    `;
    await expect(run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: REPO_ROOT })).rejects.toMatchObject({ code: 3 });
    expect(readFileSync(file, 'utf8').trim().split('\n').map((l) => (JSON.parse(l) as { i: number }).i)).toEqual([0, 1, 2]);
  });
});
