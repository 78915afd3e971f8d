import type { UseFormRegisterReturn } from 'react-hook-form';
import { Field } from './field.tsx';
import { FIELD_HINTS } from './field-hints.ts';
import { PASSWORD_RULES } from './password-rules.ts';

interface NewPasswordFieldsProps {
  register: (name: 'password' | 'password_check') => UseFormRegisterReturn;
  errors: Partial<Record<'password' | 'password_check', { message?: string | undefined }>>;
  /** The rules the form applies (SPEC.md section 5): the card sign-up's 8-16, or the open 8-72. */
  rules: 'card' | 'open';
  /** 新しいパスワード where a password is replaced, パスワード where one is chosen. */
  label?: string;
}

/**
 * A new password and its confirmation (SPEC.md section 5), labelled and hinted once for every form,
 * with the rules stated for password generators. Neither is normalised on blur (ui/field.tsx): the
 * server compares passwords byte for byte.
 */
export function NewPasswordFields({ register, errors, rules, label = 'パスワード' }: NewPasswordFieldsProps) {
  return (
    <>
      <Field
        id="password"
        label={label}
        hint={rules === 'card' ? FIELD_HINTS.cardPassword : FIELD_HINTS.openPassword}
        type="password"
        autoComplete="new-password"
        passwordrules={PASSWORD_RULES[rules]}
        error={errors.password?.message}
        {...register('password')}
      />
      <Field
        id="password_check"
        label={`${label}（確認用）`}
        type="password"
        autoComplete="new-password"
        passwordrules={PASSWORD_RULES[rules]}
        error={errors.password_check?.message}
        {...register('password_check')}
      />
    </>
  );
}
