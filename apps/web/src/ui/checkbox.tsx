import type { InputHTMLAttributes, Ref } from 'react';
import { FieldHint } from './field-frame.tsx';
import styles from './field.module.css';

interface CheckboxProps extends InputHTMLAttributes<HTMLInputElement> {
  id: string;
  label: string;
  hint?: string;
  ref?: Ref<HTMLInputElement>;
}

/** A labelled checkbox with an optional hint such as "※チェック必須". */
export function Checkbox({ id, label, hint, ref, ...input }: CheckboxProps) {
  return (
    <div className={styles.field}>
      <div>
        <input id={id} ref={ref} type="checkbox" aria-describedby={hint ? `${id}-hint` : undefined} {...input} />{' '}
        <label htmlFor={id}>{label}</label>
      </div>
      <FieldHint id={id} hint={hint} />
    </div>
  );
}
