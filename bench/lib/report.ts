import { readFileSync, writeFileSync } from 'node:fs';
import type { OpSummary } from './stats.ts';

/** Formatting of results as Markdown tables, printed as they are and written into docs/. */

export const ms = (v: number): string => (Number.isNaN(v) ? '–' : v < 10 ? v.toFixed(2) : v < 100 ? v.toFixed(1) : v.toFixed(0));
export const mib = (v: number | undefined): string => (v === undefined || Number.isNaN(v) ? '–' : `${v.toFixed(1)} MiB`);

export function markdownTable(headers: readonly string[], rows: readonly (readonly (string | number)[])[]): string {
  const cells = [headers, ...rows.map((r) => r.map(String))];
  const widths = headers.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? '').length)));
  const line = (r: readonly string[]) => `| ${r.map((c, i) => c.padEnd(widths[i] ?? 0)).join(' | ')} |`;
  return [line(cells[0] as string[]), line(widths.map((w) => '-'.repeat(Math.max(3, w)))), ...cells.slice(1).map(line)].join('\n');
}

/** Per-operation latency table (ms) of a run lasting `seconds`. */
export const latencyTable = (rows: readonly OpSummary[], seconds: number): string =>
  markdownTable(
    ['operation', 'requests', 'ok/s', 'errors', 'p50 ms', 'p99 ms', 'max ms'],
    rows.map((r) => [r.op, r.count, (r.ok / seconds).toFixed(1), r.errors, ms(r.p50), ms(r.p99), ms(r.max)]),
  );

export const errorTable = (errors: ReadonlyMap<string, number>): string =>
  errors.size === 0
    ? 'No errors.'
    : markdownTable(['operation: kind', 'count'], [...errors].sort((a, b) => b[1] - a[1]).map(([k, n]) => [k, n]));

/**
 * Rewrites the part of a Markdown file between `<!-- name:begin -->` and `<!-- name:end -->`,
 * leaving the hand-written rest of the file as it is.
 */
export function replaceSection(file: string, name: string, content: string): void {
  const begin = `<!-- ${name}:begin -->`;
  const end = `<!-- ${name}:end -->`;
  const text = readFileSync(file, 'utf8');
  const from = text.indexOf(begin);
  const to = text.indexOf(end);
  if (from < 0 || to < from) throw new Error(`${file} has no ${begin} … ${end} section`);
  writeFileSync(file, `${text.slice(0, from + begin.length)}\n${content.trim()}\n${text.slice(to)}`);
}
