/** The audit screen's filter as typed: text, and dates as the date inputs give them (YYYY-MM-DD). */
export interface AuditFilterInput {
  operator_id: string;
  member_id: string;
  client_id: string;
  action: string;
  from: string;
  to: string;
}

/** Midnight of a date in Japan time (UTC+9, no daylight saving), epoch ms; undefined for anything but YYYY-MM-DD. */
export function japanMidnight(date: string): number | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!m) return undefined;
  return Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) - 9 * 3_600_000;
}

const DAY = 86_400_000;

/**
 * The audit API's filter (auditReadRequestSchema's fields): the fields given, trimmed; the days in
 * Japan time, `from` from its midnight and `to` up to the end of its day (the API's `to` is excluded).
 */
export function auditFilter(input: AuditFilterInput): { operator_id?: string; member_id?: string; client_id?: string; action?: string; from?: number; to?: number } {
  const text = (v: string) => (v.trim() === '' ? undefined : v.trim());
  const from = japanMidnight(input.from);
  const to = japanMidnight(input.to);
  return Object.fromEntries(
    Object.entries({
      operator_id: text(input.operator_id),
      member_id: text(input.member_id),
      client_id: text(input.client_id),
      action: text(input.action),
      from,
      to: to === undefined ? undefined : to + DAY,
    }).filter(([, v]) => v !== undefined),
  );
}
