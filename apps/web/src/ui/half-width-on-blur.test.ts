import { describe, expect, it, vi } from 'vitest';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { halfWidthOnBlur } from './half-width-on-blur.ts';

/** Blurs a registered input holding `typed`; returns the value the form's own blur handler saw. */
async function blur(typed: string): Promise<string> {
  let seen = '';
  const registration = {
    name: 'field',
    onChange: vi.fn(),
    onBlur: vi.fn(async (event: { target: { value: string } }) => {
      seen = event.target.value;
    }),
    ref: vi.fn(),
  } as unknown as UseFormRegisterReturn<'field'>;
  const input = { value: typed };
  await halfWidthOnBlur(registration).onBlur({ target: input, type: 'blur' });
  expect(input.value).toBe(seen);
  return seen;
}

describe('full-width to half-width conversion on blur (SPEC.md section 5)', () => {
  it('converts a full-width e-mail address before the form validates it', async () => {
    expect(await blur('ｔａｒｏ．ｙａｍａｄａ＠ｅｘａｍｐｌｅ．ｃｏｍ')).toBe('taro.yamada@example.com');
  });

  it('converts full-width digits of a phone number, postal code and birthday', async () => {
    expect(await blur('０９０１２３４５６７８')).toBe('09012345678');
    expect(await blur('１０００００１')).toBe('1000001');
    expect(await blur('１９９００４０１')).toBe('19900401');
  });

  it('leaves half-width input and Japanese text as typed', async () => {
    expect(await blur('user@example.com')).toBe('user@example.com');
    expect(await blur('山田')).toBe('山田');
  });
});
