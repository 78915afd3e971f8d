import { Histogram, type Registry } from 'prom-client';

/** One series: its labels, its count in each bucket (not cumulative; the last one past the largest bound), sum and count. */
interface Series {
  labels: { method: string; route: string; status_code: number };
  inBucket: number[];
  sum: number;
  count: number;
}

/** A value as prom-client's histogram hands it to the registry: the series' labels apart as `sharedLabels`. */
interface ExportValue {
  labels: { le?: number | string };
  sharedLabels: Series['labels'];
  value: number;
  metricName: string;
  exemplar?: null;
}

/**
 * The HTTP request durations (lib/metrics.ts sso_http_request_duration_seconds), recorded once per
 * answer: a prom-client Histogram for the registry and the scrape, whose observe() takes a labels
 * object and checks, hashes and copies it on every call, about 0.4 µs of a request that costs the
 * cheapest reads 100 µs (docs/performance.md "Metrics, security events and the request context").
 * observeRequest() finds the series by the method, route template and status in nested Maps and
 * adds to plain counts; the scrape's export (getForPromString, what get() and the registry read) is
 * prom-client's own histogram format, text for text (request-duration-histogram.test.ts).
 */
export class RequestDurationHistogram extends Histogram<'method' | 'route' | 'status_code'> {
  private readonly bounds: readonly number[];
  private readonly metric: { name: string; help: string };
  private byMethod = new Map<string, Map<string, Map<number, Series>>>();

  constructor(config: { name: string; help: string; buckets: number[]; registers: Registry[] }) {
    super({ ...config, labelNames: ['method', 'route', 'status_code'] as const });
    this.bounds = [...config.buckets].sort((a, b) => a - b);
    this.metric = { name: config.name, help: config.help };
    // prom-client's constructor binds observe() on the instance: one way in, this one.
    this.observe = ((labels: Series['labels'], seconds: number) => this.observeRequest(labels.method, labels.route, labels.status_code, seconds)) as typeof this.observe;
  }

  /** Records one answer. */
  observeRequest(method: string, route: string, statusCode: number, seconds: number): void {
    let byRoute = this.byMethod.get(method);
    if (!byRoute) this.byMethod.set(method, (byRoute = new Map()));
    let byStatus = byRoute.get(route);
    if (!byStatus) byRoute.set(route, (byStatus = new Map()));
    let series = byStatus.get(statusCode);
    if (!series) {
      series = { labels: { method, route, status_code: statusCode }, inBucket: new Array<number>(this.bounds.length + 1).fill(0), sum: 0, count: 0 };
      byStatus.set(statusCode, series);
    }
    let bucket = 0;
    while (bucket < this.bounds.length && seconds > (this.bounds[bucket] as number)) bucket++;
    series.inBucket[bucket] = (series.inBucket[bucket] as number) + 1;
    series.sum += seconds;
    series.count += 1;
  }

  override reset(): void {
    this.byMethod = new Map();
  }

  /** What prom-client's Histogram answers here: each series' cumulative buckets, `+Inf`, sum and count. */
  getForPromString(): { name: string; help: string; type: 'histogram'; values: ExportValue[]; aggregator: 'sum' } {
    const values: ExportValue[] = [];
    for (const byRoute of this.byMethod.values()) {
      for (const byStatus of byRoute.values()) {
        for (const s of byStatus.values()) {
          let cumulative = 0;
          this.bounds.forEach((le, i) => {
            cumulative += s.inBucket[i] as number;
            values.push({ labels: { le }, sharedLabels: s.labels, value: cumulative, metricName: `${this.metric.name}_bucket`, exemplar: null });
          });
          values.push(
            { labels: { le: '+Inf' }, sharedLabels: s.labels, value: s.count, metricName: `${this.metric.name}_bucket`, exemplar: null },
            { labels: {}, sharedLabels: s.labels, value: s.sum, metricName: `${this.metric.name}_sum`, exemplar: undefined },
            { labels: {}, sharedLabels: s.labels, value: s.count, metricName: `${this.metric.name}_count`, exemplar: undefined },
          );
        }
      }
    }
    return { ...this.metric, type: 'histogram', values, aggregator: 'sum' };
  }
}
