import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../config.ts';
import { withTestApp } from '../test-support/test-app.ts';
import { registry } from './metrics.ts';

/** The dashboard's queries: every panel target's `expr`, and the template variables' queries. */
function dashboardExpressions(): string[] {
  const dashboard = JSON.parse(readFileSync(`${REPO_ROOT}docs/grafana/sso-dashboard.json`, 'utf8')) as {
    schemaVersion: number;
    templating: { list: { name: string; type: string; query: unknown }[] };
    panels: { type: string; title: string; targets?: { expr: string }[] }[];
  };
  expect(dashboard.schemaVersion).toBeGreaterThanOrEqual(39);
  expect(dashboard.templating.list.find((v) => v.name === 'datasource')).toMatchObject({ type: 'datasource', query: 'prometheus' });
  const panels = dashboard.panels.filter((p) => p.type !== 'row');
  for (const p of panels) expect(p.targets?.length, p.title).toBeGreaterThan(0);
  const variables = dashboard.templating.list.flatMap((v) => (typeof v.query === 'object' && v.query ? [(v.query as { query: string }).query] : []));
  return [...panels.flatMap((p) => p.targets!.map((t) => t.expr)), ...variables];
}

/** The alert rules' expressions, one line each (docs/prometheus/alerts.yml keeps them so), with their alerts' names. */
function alertExpressions(): { alerts: string[]; exprs: string[] } {
  const text = readFileSync(`${REPO_ROOT}docs/prometheus/alerts.yml`, 'utf8');
  const alerts = [...text.matchAll(/^\s+- alert: (\S+)$/gm)].map((m) => m[1]!);
  const exprs = [...text.matchAll(/^\s+expr: (.+)$/gm)].map((m) => m[1]!);
  expect(exprs.length).toBe(alerts.length);
  return { alerts, exprs };
}

/** The series an expression reads: the service's and Node's names, and Prometheus's own `up`. */
const seriesIn = (expr: string): string[] => [...expr.matchAll(/\b((?:sso|nodejs|process)_[a-z0-9_]+|up)\b/g)].map((m) => m[1]!);

/** The registry's metric a series belongs to: a histogram's `_bucket`, `_sum` and `_count` are its own. */
function metricOf(series: string, names: Set<string>): string | undefined {
  if (names.has(series)) return series;
  const base = series.replace(/_(bucket|sum|count)$/, '');
  return names.has(base) ? base : undefined;
}

describe('the Grafana dashboard and the alert rules', () => {
  // Built, so that every module's metrics are registered as in a running node.
  withTestApp('sqlite');

  it('name only series the service exports, so that a renamed metric fails here', async () => {
    const names = new Set((await registry.getMetricsAsJSON()).map((m) => m.name));
    const exprs = [...dashboardExpressions(), ...alertExpressions().exprs];
    const unknown = exprs.flatMap((e) => seriesIn(e).filter((s) => s !== 'up' && metricOf(s, names) === undefined).map((s) => `${s} in ${e}`));
    expect(unknown).toEqual([]);
    // Every expression reads something the check above saw.
    expect(exprs.filter((e) => seriesIn(e).length === 0)).toEqual([]);
  });

  it('shows every sso_ metric the service exports on the dashboard', async () => {
    const names = new Set((await registry.getMetricsAsJSON()).map((m) => m.name));
    const shown = new Set(dashboardExpressions().flatMap(seriesIn).map((s) => metricOf(s, names)));
    expect([...names].filter((n) => n.startsWith('sso_') && !shown.has(n))).toEqual([]);
    expect(shown.has('nodejs_eventloop_lag_p99_seconds')).toBe(true);
  });

  it('alert on the obvious pages', () => {
    expect(alertExpressions().alerts.sort()).toEqual(
      [
        'SsoArgon2Queued',
        'SsoAuthorizationCodeReplay',
        'SsoDbPoolWaiting',
        'SsoEventLoopDelayHigh',
        'SsoHigh5xxRatio',
        'SsoLockoutSpike',
        'SsoLoginFailureSpike',
        'SsoLoginLatencyHigh',
        'SsoNotReady',
        'SsoOtpDeliveryFailing',
        'SsoOtpRefusedSpike',
        'SsoOutboxBacklogOld',
        'SsoRefreshTokenReuse',
        'SsoTargetDown',
        'SsoTransparentHugePagesOff',
      ].sort(),
    );
  });

  it('finds a renamed series: the check is not vacuous', () => {
    const names = new Set(['sso_logins_total', 'sso_http_request_duration_seconds']);
    expect(seriesIn('sum(rate(sso_login_total{job="sso"}[5m])) > 0').map((s) => metricOf(s, names))).toEqual([undefined]);
    expect(seriesIn('rate(sso_http_request_duration_seconds_bucket{a="b"}[5m])').map((s) => metricOf(s, names))).toEqual(['sso_http_request_duration_seconds']);
    expect(seriesIn('up{job="sso"} == 0')).toEqual(['up']);
  });
});
