import { registry } from '../lib/metrics.ts';

/**
 * The sum of a series' values whose labels match `labels` (lib/metrics.ts), read as a scrape reads
 * it. A histogram's `_count`, `_sum` or `_bucket` is named by `part`.
 */
export async function metricValue(name: string, labels: Record<string, string | number> = {}, part?: 'count' | 'sum' | 'bucket'): Promise<number> {
  const metric = registry.getSingleMetric(name);
  if (!metric) throw new Error(`no metric ${name} in the registry`);
  const { values } = await metric.get();
  return values
    .filter((v) => (part ? (v as { metricName?: string }).metricName === `${name}_${part}` : true))
    .filter((v) => Object.entries(labels).every(([k, x]) => String((v.labels as Record<string, unknown>)[k]) === String(x)))
    .reduce((sum, v) => sum + v.value, 0);
}

/** The label sets a metric holds now. */
export async function metricLabels(name: string): Promise<Record<string, string | number>[]> {
  const metric = registry.getSingleMetric(name);
  if (!metric) throw new Error(`no metric ${name} in the registry`);
  return (await metric.get()).values.map((v) => v.labels as Record<string, string | number>);
}
