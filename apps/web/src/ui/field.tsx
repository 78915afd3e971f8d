import type { InputHTMLAttributes, Ref } from 'react';
import { LIMITS } from '@sso/contracts/constants';
import styles from './field.module.css';
import { useDelayed } from './use-delayed.ts';

interface FieldProps extends InputHTMLAttributes<HTMLInputElement> {
  id: string;
  label: string;
  error?: string | undefined;
  hint?: string;
  ref?: Ref<HTMLInputElement>;
}

/** A labelled input; its error shows 300 ms after it appears (SPEC.md section 5). */
export function Field({ id, label, error, hint, ref, ...input }: FieldProps) {
  const shownError = useDelayed(error, LIMITS.errorDisplayDelayMs);
  const describedBy = [hint ? `${id}-hint` : '', shownError ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className={styles.field}>
      <label className={styles.label} htmlFor={id}>
        {label}
      </label>
      {hint && (
        <p id={`${id}-hint`} className={styles.hint}>
          {hint}
        </p>
      )}
      <input id={id} ref={ref} className={styles.input} aria-invalid={shownError ? true : undefined} aria-describedby={describedBy} {...input} />
      {shownError && (
        <p id={`${id}-error`} className={styles.error}>
          {shownError}
        </p>
      )}
    </div>
  );
}
