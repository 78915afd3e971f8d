import type { FormEvent } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { VALIDATION_MESSAGES } from '@sso/contracts/validation-messages';

vi.mock('react', async (importOriginal) => {
  const harness = await import('../../ui/test-hook-harness.ts');
  return { ...(await importOriginal<object>()), useState: harness.useState, useEffect: harness.useEffect, useCallback: <F>(f: F) => f };
});

const { render } = await import('../../ui/test-hook-harness.ts');
const { useLoginForm } = await import('./login-form.ts');

const REQUIRED = VALIDATION_MESSAGES.required;

/** The two inputs of the login form, as the submit handler finds them. */
function inputs(user_mail: string, user_pass: string) {
  const els = { user_mail: { name: 'user_mail', value: user_mail, focus: vi.fn() }, user_pass: { name: 'user_pass', value: user_pass, focus: vi.fn() } };
  const event = { preventDefault: vi.fn(), currentTarget: { elements: { namedItem: (n: keyof typeof els) => els[n] } } };
  return { els, event: event as unknown as FormEvent<HTMLFormElement> };
}
const input = (name: string, value: string) => ({ currentTarget: { name, value } as HTMLInputElement });

describe('the login form (SPEC.md section 5)', () => {
  it('checks a field when it loses focus, not while it is typed in', () => {
    const view = render(useLoginForm, undefined);
    expect(view.output.field('user_mail').onChange).toBeUndefined();
    view.output.field('user_mail').onBlur?.(input('user_mail', '  '));
    expect(view.output.field('user_mail').error).toBe(REQUIRED);
    view.output.field('user_mail').onBlur?.(input('user_mail', 'a@example.com'));
    expect(view.output.field('user_mail').error).toBeUndefined();
  });

  it('sends the trimmed id and the password as typed when both are filled', () => {
    const view = render(useLoginForm, undefined);
    const onValid = vi.fn(async () => undefined);
    view.output.handleSubmit(onValid, vi.fn())(inputs(' a@example.com ', ' pass ').event);
    expect(onValid).toHaveBeenCalledWith({ user_mail: 'a@example.com', user_pass: ' pass ' });
  });

  it('sends a full-width address half-width and a mobile number without hyphens, the password byte for byte', () => {
    const view = render(useLoginForm, undefined);
    const onValid = vi.fn(async () => undefined);
    view.output.handleSubmit(onValid, vi.fn())(inputs('ｔａｒｏ＠ｅｘａｍｐｌｅ．ｊｐ', 'Ｐａｓｓ１').event);
    expect(onValid).toHaveBeenLastCalledWith({ user_mail: 'taro@example.jp', user_pass: 'Ｐａｓｓ１' });
    view.output.handleSubmit(onValid, vi.fn())(inputs('０９０－１２３４－５６７８', 'pass').event);
    expect(onValid).toHaveBeenLastCalledWith({ user_mail: '09012345678', user_pass: 'pass' });
  });

  it('does not send an empty form: both errors show, the first field gets the focus, and changes check again', () => {
    const view = render(useLoginForm, undefined);
    const onValid = vi.fn(async () => undefined);
    const onInvalid = vi.fn();
    const { els, event } = inputs('', '');
    view.output.handleSubmit(onValid, onInvalid)(event);
    expect(onValid).not.toHaveBeenCalled();
    expect(onInvalid).toHaveBeenCalledOnce();
    expect([view.output.field('user_mail').error, view.output.field('user_pass').error]).toEqual([REQUIRED, REQUIRED]);
    expect(els.user_mail.focus).toHaveBeenCalled();
    expect(view.output.field('user_pass').onBlur).toBeUndefined();
    view.output.field('user_pass').onChange?.(input('user_pass', 'p'));
    expect(view.output.field('user_pass').error).toBeUndefined();
  });

  it("shows the server's validation message on its field until a valid submit", () => {
    const view = render(useLoginForm, undefined);
    view.output.setError('user_pass', 'パスワードの形式が正しくありません');
    expect(view.output.field('user_pass').error).toBe('パスワードの形式が正しくありません');
    view.output.handleSubmit(async () => undefined, vi.fn())(inputs('a@example.com', 'pass').event);
    expect(view.output.field('user_pass').error).toBeUndefined();
  });
});
