import type { FocusEvent, InputHTMLAttributes, Ref } from 'react';
import { FieldFrame } from './field-frame.tsx';
import { SecretInput, type SecretKind } from './secret-input.tsx';
import { inputKindOf, normaliseInput } from '../lib/input-normalise.ts';
import styles from './field.module.css';

interface FieldProps extends InputHTMLAttributes<HTMLInputElement> {
  id: string;
  label: string;
  error?: string | undefined;
  hint?: string;
  ref?: Ref<HTMLInputElement>;
  /** For type=password: what it holds, which names its show toggle (ui/secret-input.tsx). */
  secret?: SecretKind;
}

/**
 * A labelled input; its error shows 300 ms after it appears (SPEC.md section 5). On blur its value
 * is normalised by the field's kind (lib/input-normalise.ts: NFKC, kana, digits; a password never)
 * before the form's own blur handler reads and validates it, so every form converts alike (the
 * inputs are uncontrolled: react-hook-form's and the login form's read the element's value). An
 * e-mail input (a login id too) is not capitalised or corrected by phone keyboards. A password
 * input comes with its show-password toggle (ui/secret-input.tsx).
 */
export function Field({ id, label, error, hint, ref, secret, onBlur, ...input }: FieldProps) {
  const kind = inputKindOf(input.name, input.type);
  const normaliseThenBlur = (event: FocusEvent<HTMLInputElement>) => {
    const target = event.target;
    const converted = normaliseInput(kind, target.value);
    if (converted !== target.value) target.value = converted;
    return onBlur?.(event);
  };
  const typedAsIs = input.inputMode === 'email' ? { autoCapitalize: 'none', autoCorrect: 'off', spellCheck: false } : {};
  const blur = kind === 'verbatim' ? onBlur : normaliseThenBlur;
  return (
    <FieldFrame id={id} label={label} hint={hint} error={error}>
      {(aria) =>
        input.type === 'password' ? (
          <SecretInput id={id} secret={secret} ref={ref} className={styles.input} {...aria} {...input} onBlur={blur} />
        ) : (
          <input id={id} ref={ref} className={styles.input} {...aria} {...typedAsIs} {...input} onBlur={blur} />
        )
      }
    </FieldFrame>
  );
}
