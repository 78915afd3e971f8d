import { describe, expect, it } from 'vitest';
import { cardSignupFieldsSchema } from '@sso/contracts/signup';
import { cardYearOptions, MONTH_OPTIONS } from './card-expiry.ts';

describe('card expiry options', () => {
  it('offers 9 years starting from the current year', () => {
    expect(cardYearOptions(new Date(2025, 0, 1)).map((o) => o.value)).toEqual(
      ['2025', '2026', '2027', '2028', '2029', '2030', '2031', '2032', '2033'],
    );
    expect(cardYearOptions(new Date(2031, 11, 31, 23, 59)).map((o) => o.value)).toEqual(
      ['2031', '2032', '2033', '2034', '2035', '2036', '2037', '2038', '2039'],
    );
  });

  it('offers the months 01 to 12', () => {
    expect(MONTH_OPTIONS.map((o) => o.value)).toEqual(['01', '02', '03', '04', '05', '06', '07', '08', '09', '10', '11', '12']);
  });

  it('offers only values the contract accepts', () => {
    for (const o of MONTH_OPTIONS) expect(cardSignupFieldsSchema.shape.cc_month.safeParse(o.value).success).toBe(true);
    for (const o of cardYearOptions()) expect(cardSignupFieldsSchema.shape.cc_year.safeParse(o.value).success).toBe(true);
  });
});
