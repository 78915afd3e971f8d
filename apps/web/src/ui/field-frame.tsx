import type { ReactNode } from 'react';
import { LIMITS } from '@sso/contracts/constants';
import styles from './field.module.css';
import { useDelayed } from './use-delayed.ts';

/** What the framed control carries so that its hint and shown error describe it. */
export interface FieldControlAria {
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
}

interface FieldFrameProps {
  id: string;
  label: string;
  hint?: string | undefined;
  error?: string | undefined;
  className?: string | undefined;
  /** Renders the control with the given id's aria attributes. */
  children: (aria: FieldControlAria) => ReactNode;
}

/** The hint under a label, named `${id}-hint` for the control's aria-describedby. */
export function FieldHint({ id, hint }: { id: string; hint?: string | undefined }) {
  if (!hint) return null;
  return (
    <p id={`${id}-hint`} className={styles.hint}>
      {hint}
    </p>
  );
}

/**
 * The frame of a labelled control (Field, Select): label, hint, the control, and its error, which
 * shows 300 ms after it appears (SPEC.md section 5).
 */
export function FieldFrame({ id, label, hint, error, className, children }: FieldFrameProps) {
  const shownError = useDelayed(error, LIMITS.errorDisplayDelayMs);
  const describedBy = [hint ? `${id}-hint` : '', shownError ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className={className ? `${styles.field} ${className}` : styles.field}>
      <label className={styles.label} htmlFor={id}>
        {label}
      </label>
      <FieldHint id={id} hint={hint} />
      {children({ 'aria-invalid': shownError ? true : undefined, 'aria-describedby': describedBy })}
      {shownError && (
        <p id={`${id}-error`} className={styles.error}>
          {shownError}
        </p>
      )}
    </div>
  );
}
