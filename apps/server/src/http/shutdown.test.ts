import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { freePort } from '../test-support/listening-app.ts';
import { ROOT } from '../test-support/running-system.ts';
import { shutDown } from './shutdown.ts';

const status = async (url: string) => {
  try {
    const res = await fetch(url);
    return { status: res.status, body: (await res.json()) as unknown };
  } catch {
    return { status: 0, body: undefined };
  }
};

describe('the shutdown on SIGTERM', () => {
  it('drains (readiness 503, liveness 200), then closes and exits 0, one log line a step', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sso-shutdown-'));
    const port = await freePort();
    const origin = `http://127.0.0.1:${port}`;
    const metrics = `http://127.0.0.1:${await freePort()}/metrics`;
    const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
      cwd: ROOT,
      env: { ...process.env, NODE_ENV: 'test', PORT: String(port), HOST: '127.0.0.1', PUBLIC_ORIGIN: origin, DATABASE_URL: `sqlite:${join(dir, 'sso.db')}`, SMTP_SINK_PORT: '0', WEB_DIST: '/nonexistent', ADMIN_DIST: '/nonexistent', LOG_LEVEL: 'info', SHUTDOWN_DRAIN_MS: '3000', SHUTDOWN_TIMEOUT_MS: '5000', METRICS_PORT: new URL(metrics).port },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      await expect.poll(async () => (await status(`${origin}/api/health/ready`)).status, { timeout: 60_000, interval: 200 }).toBe(200);
      child.kill('SIGTERM');
      await expect.poll(async () => (await status(`${origin}/api/health/ready`)).body, { timeout: 2_500, interval: 50 }).toEqual({ status: 'unavailable', failing: 'draining' });
      expect(await status(`${origin}/api/health/live`)).toEqual({ status: 200, body: { status: 'ok' } });
      // The management listener is scraped while the node drains (http/management.ts), and closed with it.
      expect((await fetch(metrics)).status).toBe(200);
      expect(await exited).toBe(0);
      const steps = output
        .split('\n')
        .filter((line) => line.includes('"shutdown'))
        .map((line) => (JSON.parse(line) as { msg: string }).msg.split(':')[1]?.trim().split(' ')[0]);
      expect(steps).toEqual(['draining', 'closing', 'closed']);
      expect((await status(`${origin}/api/health/live`)).status).toBe(0);
      await expect(fetch(metrics)).rejects.toThrow();
    } finally {
      child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  }, 90_000);

  it('gives up on a close that outlasts the time-out, and says so', async () => {
    const app = Fastify();
    let release = () => {};
    let entered = false;
    app.get('/slow', () => {
      entered = true;
      return new Promise((resolve) => (release = () => resolve({ done: true })));
    });
    const port = await freePort();
    await app.listen({ port, host: '127.0.0.1' });
    const inFlight = fetch(`http://127.0.0.1:${port}/slow`).then((r) => r.status, () => 0);
    await expect.poll(() => entered).toBe(true);
    const lines: string[] = [];
    const log = { info: (m: string) => lines.push(`info ${m}`), error: (m: string) => lines.push(`error ${m}`) };
    let drained = false;
    const started = Date.now();
    const outcome = await shutDown({ startDraining: () => (drained = true), close: () => app.close(), log }, { drainMs: 50, timeoutMs: 300 });
    expect(outcome).toBe('timed_out');
    expect(drained).toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(330);
    expect(lines.map((l) => l.split(':')[0])).toEqual(['info shutdown', 'info shutdown', 'error shutdown']);
    expect(lines.at(-1)).toMatch(/^error shutdown: timed out after 300 ms/);
    release();
    expect(await inFlight).toBe(200);
  });

  it('says so and answers failed when the close throws', async () => {
    const lines: string[] = [];
    const log = { info: (m: string) => lines.push(`info ${m}`), error: (m: string) => lines.push(`error ${m}`) };
    const app = { startDraining: () => {}, close: () => Promise.reject(new Error('a close hook failed')), log };
    expect(await shutDown(app, { drainMs: 0, timeoutMs: 1_000 })).toBe('failed');
    expect(lines.at(-1)).toBe('error shutdown: the close failed: a close hook failed');
  });

  it('closes at once without a drain when SHUTDOWN_DRAIN_MS is 0', async () => {
    const app = Fastify();
    await app.listen({ port: 0, host: '127.0.0.1' });
    const lines: string[] = [];
    const log = { info: (m: string) => lines.push(m), error: (m: string) => lines.push(m) };
    expect(await shutDown({ startDraining: () => {}, close: () => app.close(), log }, { drainMs: 0, timeoutMs: 1_000 })).toBe('closed');
    expect(lines.map((l) => l.split(' ')[1])).toEqual(['draining', 'closing', 'closed']);
    expect(app.server.listening).toBe(false);
  });
});
