import styles from './status-notice.module.css';

/** What a change on the screen did ("パスキーを登録しました。"), announced as a status; nothing without one. */
export function StatusNotice({ text }: { text: string | undefined }) {
  if (!text) return null;
  return (
    <p role="status" className={styles.notice}>
      {text}
    </p>
  );
}
