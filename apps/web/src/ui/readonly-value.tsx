import { ACCOUNT_MESSAGES } from '@sso/contracts/screen-messages';
import fieldStyles from './field.module.css';
import styles from './readonly-value.module.css';

/**
 * A profile field the member may not change (the answer's `readonly`): its label and stored value
 * as text, not an input, with the reason; an error the server gave for it shows under it.
 */
export function ReadonlyValue({ label, value, error }: { label: string; value: string; error?: string | undefined }) {
  return (
    <div className={fieldStyles.field}>
      <p className={`${fieldStyles.label} ${styles.value}`}>{label}</p>
      <p className={styles.value}>{value}</p>
      <p className={fieldStyles.hint}>{ACCOUNT_MESSAGES.readonlyField}</p>
      {error && <p className={fieldStyles.error}>{error}</p>}
    </div>
  );
}
