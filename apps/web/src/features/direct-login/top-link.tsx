import { TopButton } from '../../ui/back-to-top.tsx';
import page from '../../ui/page.module.css';

/** The way back to Top when a hand-off cannot go on (a refusal, no card to hand off with). */
export function TopLink() {
  return (
    <p className={page.help}>
      <TopButton />
    </p>
  );
}
