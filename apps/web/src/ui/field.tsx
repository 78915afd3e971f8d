import type { InputHTMLAttributes, Ref } from 'react';
import { FieldFrame } from './field-frame.tsx';
import styles from './field.module.css';

interface FieldProps extends InputHTMLAttributes<HTMLInputElement> {
  id: string;
  label: string;
  error?: string | undefined;
  hint?: string;
  ref?: Ref<HTMLInputElement>;
}

/** A labelled input; its error shows 300 ms after it appears (SPEC.md section 5). */
export function Field({ id, label, error, hint, ref, ...input }: FieldProps) {
  return (
    <FieldFrame id={id} label={label} hint={hint} error={error}>
      {(aria) => <input id={id} ref={ref} className={styles.input} {...aria} {...input} />}
    </FieldFrame>
  );
}
