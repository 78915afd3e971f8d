import type { ReactNode } from 'react';
import { LIMITS } from '@sso/contracts/constants';
import styles from './field.module.css';
import { useDelayed } from './use-delayed.ts';

interface FieldGroupProps {
  legend: string;
  /** An error of the group as a whole (the name's total length), shown under its fields 300 ms after it appears (SPEC.md section 5). */
  error?: string | undefined;
  /** Names the error `${id}-error`, for the group's aria-describedby. */
  id?: string;
  children: ReactNode;
}

/**
 * Related fields under one legend, side by side (a family and a given name): the fieldset names
 * the group for assistive technology, each field keeps its own label.
 */
export function FieldGroup({ legend, error, id, children }: FieldGroupProps) {
  const shownError = useDelayed(error, LIMITS.errorDisplayDelayMs);
  const errorId = id && shownError ? `${id}-error` : undefined;
  return (
    <fieldset className={styles.group} aria-describedby={errorId} aria-invalid={errorId ? true : undefined}>
      <legend className={styles.label}>{legend}</legend>
      <div className={styles.pair}>{children}</div>
      {shownError && (
        <p id={errorId} className={styles.error}>
          {shownError}
        </p>
      )}
    </fieldset>
  );
}
