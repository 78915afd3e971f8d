import { useState, type InputHTMLAttributes, type Ref } from 'react';
import { SECRET_TOGGLE } from '@sso/contracts/messages';
import styles from './field.module.css';

interface SecretInputProps extends InputHTMLAttributes<HTMLInputElement> {
  id: string;
  /** The field's label: the toggle is named after it, so that two toggles on one form differ. */
  label: string;
  ref?: Ref<HTMLInputElement>;
}

/**
 * A password input with its show-password toggle, for every password field (ui/field.tsx): a toggle
 * button (WAI-ARIA) whose Japanese name stays and whose aria-pressed says whether the password shows
 * as text. It starts hidden; the value and the input element stay the same when it flips.
 */
export function SecretInput({ label, ref, ...input }: SecretInputProps) {
  const [shown, setShown] = useState(false);
  return (
    <div className={styles.secret}>
      <input ref={ref} {...input} type={shown ? 'text' : 'password'} />
      <button
        type="button"
        className={styles.reveal}
        aria-pressed={shown}
        aria-controls={input.id}
        aria-label={SECRET_TOGGLE.name(label)}
        onClick={() => setShown((s) => !s)}
      >
        {SECRET_TOGGLE.visible}
      </button>
    </div>
  );
}
