import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { loginsTotal } from '../lib/metrics.ts';
import { startManagementListener, type ManagementListener } from './management.ts';

describe('the management listener', () => {
  let listener: ManagementListener;
  let origin: string;
  beforeAll(async () => {
    listener = await startManagementListener({ port: 0 });
    origin = `http://127.0.0.1:${listener.port}`;
  });
  afterAll(async () => listener?.close());

  it('is bound to loopback unless told otherwise, as METRICS_HOST is by default', () => {
    expect(listener.host).toBe('127.0.0.1');
    expect(loadConfig({}).metricsHost).toBe('127.0.0.1');
  });

  it('answers GET /metrics in the Prometheus text format with the registry\'s series', async () => {
    loginsTotal.inc({ outcome: 'locked' });
    const res = await fetch(`${origin}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-store');
    const text = await res.text();
    expect(text).toContain('# TYPE sso_logins_total counter');
    expect(text).toMatch(/^sso_logins_total\{outcome="locked"\} [1-9]\d*$/m);
    expect(text).toContain('# TYPE sso_http_request_duration_seconds histogram');
    expect(text).toContain('# TYPE nodejs_eventloop_lag_seconds gauge');
    // A query changes nothing; HEAD has the headers alone.
    expect((await fetch(`${origin}/metrics?x=1`)).status).toBe(200);
    const head = await fetch(`${origin}/metrics`, { method: 'HEAD' });
    expect([head.status, await head.text()]).toEqual([200, '']);
  });

  it('answers 404 to anything else: another path, another method', async () => {
    for (const [path, method] of [['/', 'GET'], ['/metrics/', 'GET'], ['/api/health', 'GET'], ['/metrics', 'POST'], ['/metrics', 'DELETE']] as const) {
      const res = await fetch(`${origin}${path}`, { method });
      expect([path, method, res.status]).toEqual([path, method, 404]);
      expect(await res.text()).not.toContain('sso_');
    }
  });

  it('closes: a closed listener is not reachable, and its port can be taken again', async () => {
    const other = await startManagementListener({ port: 0 });
    const { port } = other;
    await other.close();
    await expect(fetch(`http://127.0.0.1:${port}/metrics`)).rejects.toThrow();
    const again = await startManagementListener({ port });
    expect(again.port).toBe(port);
    await again.close();
  });

  it('refuses a port already taken, so that a node does not run without its metrics unnoticed', async () => {
    await expect(startManagementListener({ port: listener.port })).rejects.toThrow(/EADDRINUSE/);
  });
});
