import styles from './alert.module.css';

/** A message announced to screen readers (role="alert"). */
export function Alert({ message }: { message: string | undefined }) {
  if (!message) return null;
  return (
    <p role="alert" className={styles.alert}>
      {message}
    </p>
  );
}
