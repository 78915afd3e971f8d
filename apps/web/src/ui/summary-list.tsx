import type { SummaryRow } from '../lib/profile-summary.ts';
import styles from './summary-list.module.css';

/** The rows of a confirm mode (SPEC.md section 2), as a description list. */
export function SummaryList({ rows }: { rows: readonly SummaryRow[] }) {
  return (
    <dl className={styles.summary}>
      {rows.map((r) => (
        <div key={r.label} className={styles.row}>
          <dt>{r.label}</dt>
          <dd>{r.value}</dd>
        </div>
      ))}
    </dl>
  );
}
