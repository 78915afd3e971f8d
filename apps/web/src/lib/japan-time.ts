/** Japan has no daylight saving time: Japan time is always UTC+9. */
const JAPAN_OFFSET_MS = 9 * 60 * 60 * 1000;

const two = (n: number) => String(n).padStart(2, '0');

/**
 * A time (an activity's, a passkey's) in Japan time, whatever the browser's time zone
 * ("2026年11月23日 14:05"). Shifting by the fixed offset and reading the UTC parts avoids depending on the
 * browser's time zone data, as japanDate of the contracts does.
 */
export function formatJapanTime(epochMs: number): string {
  const d = new Date(epochMs + JAPAN_OFFSET_MS);
  return `${d.getUTCFullYear()}年${d.getUTCMonth() + 1}月${d.getUTCDate()}日 ${two(d.getUTCHours())}:${two(d.getUTCMinutes())}`;
}

/** The same time as a machine-readable value for <time dateTime>, with the +09:00 offset. */
export function japanIsoTime(epochMs: number): string {
  const d = new Date(epochMs + JAPAN_OFFSET_MS);
  return `${d.getUTCFullYear()}-${two(d.getUTCMonth() + 1)}-${two(d.getUTCDate())}T${two(d.getUTCHours())}:${two(d.getUTCMinutes())}+09:00`;
}
