import { describe, expect, it } from 'vitest';
import { formatJapanTime, japanIsoTime } from './japan-time.ts';

describe('times in Japan time', () => {
  it('shows a UTC instant as the Japanese wall-clock time', () => {
    expect(formatJapanTime(Date.UTC(2026, 10, 23, 5, 5))).toBe('2026年11月23日 14:05');
    expect(japanIsoTime(Date.UTC(2026, 10, 23, 5, 5))).toBe('2026-11-23T14:05+09:00');
  });

  it('moves to the next day and year in Japan before UTC does', () => {
    expect(formatJapanTime(Date.UTC(2026, 11, 31, 15, 0))).toBe('2027年1月1日 00:00');
    expect(formatJapanTime(Date.UTC(2026, 11, 31, 14, 59, 59))).toBe('2026年12月31日 23:59');
  });

  it('does not depend on the time zone of the browser', () => {
    const before = process.env.TZ;
    process.env.TZ = 'America/New_York';
    try {
      expect(formatJapanTime(Date.UTC(2026, 2, 8, 7, 30))).toBe('2026年3月8日 16:30');
    } finally {
      process.env.TZ = before;
    }
  });
});
