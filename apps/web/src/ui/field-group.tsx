import type { ReactNode } from 'react';
import styles from './field.module.css';

/**
 * Related fields under one legend, side by side (a family and a given name): the fieldset names
 * the group for assistive technology, each field keeps its own label.
 */
export function FieldGroup({ legend, children }: { legend: string; children: ReactNode }) {
  return (
    <fieldset className={styles.group}>
      <legend className={styles.label}>{legend}</legend>
      <div className={styles.pair}>{children}</div>
    </fieldset>
  );
}
