import { LIMITS } from '@sso/contracts/constants';
import type { SelectOption } from './select.tsx';

/** Expiry months 01 to 12, two digits (SPEC.md section 5, "Card month"). */
export const MONTH_OPTIONS: readonly SelectOption[] = Array.from({ length: 12 }, (_, i) => {
  const value = String(i + 1).padStart(2, '0');
  return { value, label: value };
});

/** Expiry years: 9 years starting from the current year (SPEC.md section 5, "Card year"). */
export function cardYearOptions(now: Date = new Date()): SelectOption[] {
  const first = now.getFullYear();
  return Array.from({ length: LIMITS.cardYearOptions }, (_, i) => {
    const value = String(first + i);
    return { value, label: value };
  });
}
