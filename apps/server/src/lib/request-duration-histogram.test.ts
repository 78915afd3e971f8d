import { describe, expect, it } from 'vitest';
import { Histogram, Registry } from 'prom-client';
import { RequestDurationHistogram } from './request-duration-histogram.ts';

const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const config = { name: 'sso_http_request_duration_seconds', help: 'HTTP request duration in seconds.', buckets: BUCKETS };

/** Answers as the request log records them: on a bound, between bounds, past the largest, zero; a route with a quote to escape. */
const ANSWERS: [string, string, number, number][] = [
  ['GET', '/api/user', 200, 0.0012],
  ['GET', '/api/user', 200, 0.005],
  ['GET', '/api/user', 200, 0.0050001],
  ['GET', '/api/user', 401, 0],
  ['POST', '/api/auth/token', 200, 0.049],
  ['POST', '/api/auth/token', 400, 12.5],
  ['POST', '/api/auth/token', 200, 10],
  ['GET', 'unmatched', 404, 0.3],
  ['GET', '/content/"x"', 200, 2.5],
  ['GET', '/api/user', 200, 0.7],
];

/** Both histograms, each in a registry of its own, after the same answers. */
function recorded() {
  const theirs = new Registry();
  const ours = new Registry();
  const reference = new Histogram({ ...config, labelNames: ['method', 'route', 'status_code'] as const, registers: [theirs] });
  const fast = new RequestDurationHistogram({ ...config, registers: [ours] });
  for (const [method, route, status, seconds] of ANSWERS) {
    reference.observe({ method, route, status_code: status }, seconds);
    fast.observeRequest(method, route, status, seconds);
  }
  return { theirs, ours, reference, fast };
}

/** A scrape's lines, in an order of their own: the two keep their series in different orders, which Prometheus does not read. */
const lines = async (r: Registry) => (await r.metrics()).split('\n').sort();

describe('the request duration histogram', () => {
  it("scrapes as prom-client's own histogram does after the same answers, line for line", async () => {
    const { theirs, ours } = recorded();
    const expected = await lines(theirs);
    expect(expected.filter((l) => l.startsWith('sso_http_request_duration_seconds_count')).length).toBe(6);
    expect(await lines(ours)).toEqual(expected);
  });

  it("answers get() as prom-client's histogram does (the tests' metricValue reads it)", async () => {
    const { reference, fast } = recorded();
    const key = (v: { metricName?: string; labels: object }) => `${v.metricName} ${JSON.stringify(Object.entries(v.labels).sort())}`;
    const sorted = async (h: Histogram) => {
      const got = await h.get();
      return { ...got, values: got.values.map((v) => ({ key: key(v), value: v.value })).sort((a, b) => a.key.localeCompare(b.key)) };
    };
    expect(await sorted(fast)).toEqual(await sorted(reference));
  });

  it('records through observe() with a labels object too, and starts over on reset()', async () => {
    const { ours, fast } = recorded();
    fast.observe({ method: 'GET', route: '/api/user', status_code: 200 }, 0.002);
    expect(await ours.metrics()).toContain('sso_http_request_duration_seconds_count{method="GET",route="/api/user",status_code="200"} 5');
    fast.reset();
    expect(await ours.metrics()).not.toContain('sso_http_request_duration_seconds_count');
  });
});
