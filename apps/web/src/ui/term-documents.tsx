import { useState } from 'react';
import { termsOf } from './term-list.ts';
import styles from './term-documents.module.css';

/**
 * The term documents a screen asks the member to accept, each in a read-only text box (SPEC.md
 * section 2: the login's additional terms and the sign-up's terms step). The keys are read once.
 */
export function TermDocuments({ keys }: { keys: readonly string[] }) {
  const [documents] = useState(() => termsOf(keys));
  return documents.map((d) => (
    <div key={d.key} className={styles.term}>
      {/* An unknown key has no title: the key still names the box for assistive technology. */}
      <label htmlFor={`term-${d.key}`} className={d.title ? styles.title : styles.visuallyHidden}>
        {d.title || d.key}
      </label>
      <textarea id={`term-${d.key}`} className={styles.body} readOnly value={d.body} rows={6} />
    </div>
  ));
}
