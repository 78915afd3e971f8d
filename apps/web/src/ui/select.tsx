import type { Ref, SelectHTMLAttributes } from 'react';
import { FieldFrame } from './field-frame.tsx';
import styles from './field.module.css';

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
  return (
    <FieldFrame id={id} label={label} hint={hint} error={error} className={className}>
      {(aria) => (
        <select id={id} ref={ref} className={[styles.input, styles.select].join(' ')} {...aria} {...select}>
          {placeholder !== undefined && <option value="">{placeholder}</option>}
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      )}
    </FieldFrame>
  );
}
