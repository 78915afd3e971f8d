import type { InputHTMLAttributes, Ref } from 'react';
import { LIMITS } from '@sso/contracts/constants';
import { FieldHint } from './field-frame.tsx';
import styles from './field.module.css';
import type { SelectOption } from './select.tsx';
import { useDelayed } from './use-delayed.ts';

interface RadioGroupProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'type' | 'id' | 'value'> {
  /** The group's id: the radios are `${id}-${value}`, the hint and error `${id}-hint` and `${id}-error`. */
  id: string;
  legend: string;
  options: readonly SelectOption[];
  hint?: string;
  error?: string | undefined;
  /** One registration (react-hook-form's register) serves every radio of the group. */
  ref?: Ref<HTMLInputElement>;
}

/**
 * Radios in a fieldset named by its legend, each with its own label; the sibling of Field and Select:
 * the error shows 300 ms after it appears (SPEC.md section 5) and describes every radio.
 */
export function RadioGroup({ id, legend, options, hint, error, ref, ...input }: RadioGroupProps) {
  const shownError = useDelayed(error, LIMITS.errorDisplayDelayMs);
  const describedBy = [hint ? `${id}-hint` : '', shownError ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <fieldset className={`${styles.field} ${styles.group}`}>
      <legend className={styles.label}>{legend}</legend>
      <FieldHint id={id} hint={hint} />
      <div className={styles.radios}>
        {options.map((o) => (
          <label key={o.value} className={styles.radio} htmlFor={`${id}-${o.value}`}>
            <input
              id={`${id}-${o.value}`}
              ref={ref}
              type="radio"
              value={o.value}
              aria-invalid={shownError ? true : undefined}
              aria-describedby={describedBy}
              {...input}
            />
            {o.label}
          </label>
        ))}
      </div>
      {shownError && (
        <p id={`${id}-error`} className={styles.error}>
          {shownError}
        </p>
      )}
    </fieldset>
  );
}
