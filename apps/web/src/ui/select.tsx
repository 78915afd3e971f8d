import type { Ref, SelectHTMLAttributes } from 'react';
import { LIMITS } from '@sso/contracts/constants';
import styles from './field.module.css';
import { useDelayed } from './use-delayed.ts';

export interface SelectOption {
  value: string;
  label: string;
}

interface SelectProps extends SelectHTMLAttributes<HTMLSelectElement> {
  id: string;
  label: string;
  options: readonly SelectOption[];
  /** The text of the empty first option, shown until the member chooses. */
  placeholder?: string;
  error?: string | undefined;
  hint?: string;
  ref?: Ref<HTMLSelectElement>;
}

/** A labelled select, the sibling of Field; its error shows 300 ms after it appears (SPEC.md section 5). */
export function Select({ id, label, options, placeholder, error, hint, ref, className, ...select }: SelectProps) {
  const shownError = useDelayed(error, LIMITS.errorDisplayDelayMs);
  const describedBy = [hint ? `${id}-hint` : '', shownError ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className={[styles.field, className ?? ''].join(' ')}>
      <label className={styles.label} htmlFor={id}>
        {label}
      </label>
      {hint && (
        <p id={`${id}-hint`} className={styles.hint}>
          {hint}
        </p>
      )}
      <select id={id} ref={ref} className={[styles.input, styles.select].join(' ')} aria-invalid={shownError ? true : undefined} aria-describedby={describedBy} {...select}>
        {placeholder !== undefined && <option value="">{placeholder}</option>}
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      {shownError && (
        <p id={`${id}-error`} className={styles.error}>
          {shownError}
        </p>
      )}
    </div>
  );
}
