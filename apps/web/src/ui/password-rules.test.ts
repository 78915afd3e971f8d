import { describe, expect, it } from 'vitest';
import { newPassword } from '@sso/contracts/fields';
import { PASSWORD_RULES } from './password-rules.ts';

/** A password at the bounds of a passwordrules value: its length range and its allowed symbols. */
function bounds(rules: string) {
  const num = (key: string) => Number(new RegExp(`${key}: (\\d+)`).exec(rules)?.[1]);
  return { min: num('minlength'), max: num('maxlength'), symbols: /allowed: \[([^\]]*)\]/.exec(rules)?.[1] ?? '' };
}

describe('passwordrules match the rules the form checks (SPEC.md section 5)', () => {
  for (const kind of ['card', 'open'] as const) {
    it(`${kind}: what a generator may produce passes, and just outside it fails`, () => {
      const { min, max, symbols } = bounds(PASSWORD_RULES[kind]);
      const rule = newPassword(kind);
      const make = (length: number) => `a1${symbols}`.padEnd(length, 'xY9').slice(0, length);
      expect(rule.safeParse(make(min)).success).toBe(true);
      expect(rule.safeParse(make(max)).success).toBe(true);
      expect(rule.safeParse(`a1${symbols}`.padEnd(max, 'z')).success).toBe(true);
      expect(rule.safeParse(make(min - 1)).success).toBe(false);
      expect(rule.safeParse(make(max + 1)).success).toBe(false);
      expect(rule.safeParse('a1'.padEnd(min, kind === 'card' ? '!' : '$')).success).toBe(false);
    });
  }
});
