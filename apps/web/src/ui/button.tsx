import type { ButtonHTMLAttributes } from 'react';
import { FRAME_TEXTS } from '@sso/contracts/messages';
import styles from './button.module.css';

interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: 'primary' | 'secondary';
  /** While pending the button blocks repeated clicks (SPEC.md section 4) and shows that it is working. */
  pending?: boolean;
}

/**
 * A button. While its action is pending it is disabled and says that it is working, not only that it
 * is disabled: a spinner beside its label, aria-busy, and "処理中…" in its accessible name.
 */
export function Button({ variant = 'primary', pending = false, disabled, className, children, ...rest }: ButtonProps) {
  const classes = [styles.button, variant === 'secondary' ? styles.secondary : '', pending ? styles.pending : '', className ?? ''].join(' ');
  return (
    <button className={classes} disabled={disabled || pending} aria-busy={pending || undefined} {...rest}>
      {pending && <span className={styles.spinner} aria-hidden="true" />}
      {children}
      {pending && <span className={styles.working}>（{FRAME_TEXTS.working}）</span>}
    </button>
  );
}

export const buttonClass = (variant: 'primary' | 'secondary' = 'primary') =>
  [styles.button, variant === 'secondary' ? styles.secondary : ''].join(' ');
