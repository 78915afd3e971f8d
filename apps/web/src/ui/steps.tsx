import { FRAME_TEXTS } from '@sso/contracts/messages';
import styles from './steps.module.css';

interface StepsProps {
  /** The steps of the flow, in order, each a short Japanese label. */
  labels: readonly string[];
  /** The step the member is on, from 1. */
  current: number;
}

/**
 * Where the member is in a multi-step flow (card sign-up, open sign-up, e-mail change, point
 * transfer): "ステップ 2/4" in words, and the steps as an ordered list whose current item is marked
 * aria-current="step" (WAI-ARIA 1.2), so that a screen reader says which step this is of how many.
 */
export function Steps({ labels, current }: StepsProps) {
  const count = `${FRAME_TEXTS.step} ${current}/${labels.length}`;
  return (
    <div className={styles.steps}>
      <p className={styles.count}>{count}</p>
      <ol className={styles.list} aria-label={`手続きの${count}`}>
        {labels.map((label, i) => {
          const n = i + 1;
          const state = n < current ? styles.done : n === current ? styles.current : '';
          return (
            <li key={label} className={`${styles.item} ${state}`} aria-current={n === current ? 'step' : undefined}>
              {label}
            </li>
          );
        })}
      </ol>
    </div>
  );
}
