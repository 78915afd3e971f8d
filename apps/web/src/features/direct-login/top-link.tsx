import { Link } from 'react-router';
import { buttonClass } from '../../ui/button.tsx';
import page from '../../ui/page.module.css';

/** The way back to Top when a hand-off cannot go on (a refusal, no card to hand off with). */
export function TopLink() {
  return (
    <p className={page.help}>
      <Link to="/top" className={buttonClass('secondary')}>
        トップへ戻る
      </Link>
    </p>
  );
}
