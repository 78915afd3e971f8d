import { createElement, type FocusEvent, type ReactElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import { CardFields, type CardFieldName } from './card-fields.tsx';
import { Field } from './field.tsx';
import type { FieldControlAria } from './field-frame.tsx';
import { NewPasswordFields } from './new-password-fields.tsx';
import { OtpField } from './otp-field.tsx';
import { PASSWORD_RULES } from './password-rules.ts';
import { ProfileFields, type ProfileFieldName } from './profile-fields.tsx';

/** What a form's register gives a field. */
const register = (name: string) => ({ name, onChange: vi.fn(), onBlur: vi.fn(), ref: vi.fn() });

/** The attributes of the control whose id is `id`, from rendered markup, by lower-case name. */
function attrsOf(html: string, id: string): Record<string, string> {
  const tag = new RegExp(`<(?:input|select)[^>]*id="${id}"[^>]*>`).exec(html)?.[0] ?? '';
  return Object.fromEntries([...tag.matchAll(/([A-Za-z-]+)="([^"]*)"/g)].map((m) => [m[1]?.toLowerCase() ?? '', m[2] ?? '']));
}

type InputProps = Record<string, unknown> & { onBlur?: (e: FocusEvent<HTMLInputElement>) => unknown };

/** The input a Field renders, with the props it gets. */
function inputOf(props: Parameters<typeof Field>[0]): InputProps {
  const frame = Field(props) as ReactElement<{ children: (aria: FieldControlAria) => ReactElement<InputProps> }>;
  return frame.props.children({ 'aria-invalid': undefined, 'aria-describedby': undefined }).props;
}

/** Blurs a Field named `name` of `type` holding `typed`: the value its form's blur handler saw, and the input's. */
function blur(name: string, type: string, typed: string) {
  let seen = '';
  const onBlur = vi.fn((e: FocusEvent<HTMLInputElement>) => {
    seen = e.target.value;
  });
  const target = { value: typed };
  inputOf({ id: name, label: 'ラベル', name, type, onBlur }).onBlur?.({ target } as unknown as FocusEvent<HTMLInputElement>);
  expect(onBlur).toHaveBeenCalledOnce();
  return { seen, shown: target.value };
}

describe('every field normalises on blur, before its form validates (SPEC.md section 5, docs/decisions/0018)', () => {
  it('phone, postal code, birthday and card number lose hyphens, slashes and spaces; full-width digits become half-width', () => {
    expect(blur('tel', 'tel', '090-1234-5678')).toEqual({ seen: '09012345678', shown: '09012345678' });
    expect(blur('postal_code', 'text', '１００-０００１')).toEqual({ seen: '1000001', shown: '1000001' });
    expect(blur('birthday', 'text', '1990/01/01').seen).toBe('19900101');
    expect(blur('cardnumber', 'text', '4541 0000 0000 0000').seen).toBe('4541000000000000');
  });

  it('kana names become katakana; kanji names stay full-width', () => {
    expect(blur('last_name_kana', 'text', 'やまだ').seen).toBe('ヤマダ');
    expect(blur('first_name_kana', 'text', 'ﾀﾛｳ').seen).toBe('タロウ');
    expect(blur('last_name', 'text', 'ﾔﾏﾀﾞ').seen).toBe('ヤマダ');
  });

  it('NFKC for any other text field, named or not', () => {
    expect(blur('email', 'text', 'ａ＠ｅｘａｍｐｌｅ．ｊｐ').seen).toBe('a@example.jp');
    expect(blur('anything', 'text', 'ＡＢＣ１').seen).toBe('ABC1');
  });

  it('leaves a password as typed, whatever its name', () => {
    expect(blur('password', 'password', 'Ｐａｓｓ１ ')).toEqual({ seen: 'Ｐａｓｓ１ ', shown: 'Ｐａｓｓ１ ' });
    expect(blur('user_pass', 'password', 'Ｐａｓｓ１').seen).toBe('Ｐａｓｓ１');
    expect(blur('new_secret', 'password', 'Ｐａｓｓ１').seen).toBe('Ｐａｓｓ１');
  });

  it('still normalises an input whose form reads the DOM and has no blur handler', () => {
    const target = { value: '０９０' };
    inputOf({ id: 'user_mail', label: 'ID', name: 'user_mail', type: 'text' }).onBlur?.({ target } as unknown as FocusEvent<HTMLInputElement>);
    expect(target.value).toBe('090');
  });
});

describe('keyboards and autofill', () => {
  it('an e-mail input (the login id too) is neither capitalised nor corrected', () => {
    const html = renderToStaticMarkup(createElement(Field, { id: 'user_mail', label: 'ID', type: 'text', inputMode: 'email', autoComplete: 'username' }));
    expect(html).toContain('inputMode="email"');
    expect(html).toContain('autoComplete="username"');
    expect(html).toContain('autoCapitalize="none"');
    expect(html).toContain('spellCheck="false"');
    expect(renderToStaticMarkup(createElement(Field, { id: 'tel', label: '電話番号', type: 'tel' }))).not.toContain('autoCapitalize');
  });

  it('digits fields bring up the digits keyboard and name what autofill should put in them', () => {
    const profile = renderToStaticMarkup(createElement(ProfileFields, { register: (name: ProfileFieldName) => register(name), errors: {} }));
    expect(attrsOf(profile, 'birthday')).toMatchObject({ inputmode: 'numeric', autocomplete: 'bday' });
    expect(attrsOf(profile, 'postal_code')).toMatchObject({ inputmode: 'numeric', autocomplete: 'postal-code' });
    expect(attrsOf(profile, 'tel')).toMatchObject({ type: 'tel', inputmode: 'numeric', autocomplete: 'tel-national' });
    const card = renderToStaticMarkup(
      createElement(CardFields, { register: (name: CardFieldName) => register(name), errors: {}, cardNumber: '', clearCvc: () => undefined }),
    );
    expect(attrsOf(card, 'cardnumber')).toMatchObject({ inputmode: 'numeric', autocomplete: 'cc-number' });
    expect(attrsOf(card, 'cc_month')).toMatchObject({ autocomplete: 'cc-exp-month' });
    expect(attrsOf(card, 'cc_year')).toMatchObject({ autocomplete: 'cc-exp-year' });
    expect(attrsOf(card, 'cvc')).toMatchObject({ inputmode: 'numeric', autocomplete: 'cc-csc' });
    const otp = renderToStaticMarkup(createElement(OtpField, { registration: register('onetime_password'), error: undefined }));
    expect(attrsOf(otp, 'onetime_password')).toMatchObject({ inputmode: 'numeric', autocomplete: 'one-time-code' });
  });

  it('new-password inputs state the rules of their form for password generators', () => {
    for (const rules of ['card', 'open'] as const) {
      const html = renderToStaticMarkup(createElement(NewPasswordFields, { register, errors: {}, rules }));
      const attrs = [...html.matchAll(/passwordrules="([^"]*)"/g)].map((m) => m[1]);
      expect(attrs, rules).toEqual([PASSWORD_RULES[rules], PASSWORD_RULES[rules]]);
      expect(html.match(/autoComplete="new-password"/g)).toHaveLength(2);
    }
  });
});

describe('a show-password toggle on every password field (one component, ui/secret-input.tsx)', () => {
  const html = (label: string, id: string, secret?: 'pin') => renderToStaticMarkup(createElement(Field, { id, label, type: 'password', autoComplete: 'current-password', secret }));
  const buttonOf = (out: string) => /<button [^>]*>[^<]*<\/button>/.exec(out)?.[0] ?? '';

  it('puts beside a password input a button named in Japanese, not pressed, that controls it', () => {
    const out = html('パスワード', 'user_pass');
    expect(attrsOf(out, 'user_pass')).toMatchObject({ type: 'password', autocomplete: 'current-password' });
    const button = buttonOf(out);
    expect(button).toContain('type="button"');
    expect(button).toContain('aria-pressed="false"');
    expect(button).toContain('aria-controls="user_pass"');
    expect(button).toContain('aria-label="パスワードを表示"');
    // The visible text is part of the accessible name (WCAG 2.5.3, label in name).
    expect(button).toMatch(/>表示<\/button>$/);
  });

  it('names a PIN\'s toggle after the PIN, and every password\'s after the password', () => {
    expect(buttonOf(html('暗証番号', 'pin', 'pin'))).toContain('aria-label="暗証番号を表示"');
    expect(buttonOf(html('現在のパスワード', 'current_password'))).toContain('aria-label="パスワードを表示"');
  });

  it('puts none beside any other input', () => {
    expect(renderToStaticMarkup(createElement(Field, { id: 'user_mail', label: 'ID', type: 'text' }))).not.toContain('<button');
  });
});
