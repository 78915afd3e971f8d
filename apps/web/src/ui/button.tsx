import type { ButtonHTMLAttributes } from 'react';
import styles from './button.module.css';

interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: 'primary' | 'secondary';
  /** While pending the button blocks repeated clicks (SPEC.md section 4). */
  pending?: boolean;
}

export function Button({ variant = 'primary', pending = false, disabled, className, ...rest }: ButtonProps) {
  const classes = [styles.button, variant === 'secondary' ? styles.secondary : '', className ?? ''].join(' ');
  return <button className={classes} disabled={disabled || pending} aria-busy={pending || undefined} {...rest} />;
}

export const buttonClass = (variant: 'primary' | 'secondary' = 'primary') =>
  [styles.button, variant === 'secondary' ? styles.secondary : ''].join(' ');
