import { useState, type InputHTMLAttributes, type Ref } from 'react';
import { SECRET_TOGGLE } from '@sso/contracts/messages';
import styles from './field.module.css';

export type SecretKind = 'password' | 'pin';

interface SecretInputProps extends InputHTMLAttributes<HTMLInputElement> {
  id: string;
  /** What the field holds, which names the toggle: a password (the default) or a card's PIN. */
  secret?: SecretKind | undefined;
  ref?: Ref<HTMLInputElement>;
}

/**
 * A password input with its show-password toggle, for every password field (ui/field.tsx): a toggle
 * button (WAI-ARIA) whose Japanese name stays and whose aria-pressed says whether the password shows
 * as text. It starts hidden; the value and the input element stay the same when it flips.
 */
export function SecretInput({ secret = 'password', ref, ...input }: SecretInputProps) {
  const [shown, setShown] = useState(false);
  return (
    <div className={styles.secret}>
      <input ref={ref} {...input} type={shown ? 'text' : 'password'} />
      <button
        type="button"
        className={styles.reveal}
        aria-pressed={shown}
        aria-controls={input.id}
        aria-label={SECRET_TOGGLE[secret]}
        onClick={() => setShown((s) => !s)}
      >
        {SECRET_TOGGLE.visible}
      </button>
    </div>
  );
}
