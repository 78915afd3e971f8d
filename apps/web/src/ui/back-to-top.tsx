import { Link } from 'react-router';
import { getSession } from '../lib/records.ts';
import { buttonClass } from './button.tsx';

/**
 * The "戻る" button of the settings screens (SPEC.md section 2: "Some screens show a back button
 * only if the session says goesToTop"): shown only when the member came from Top's settings.
 */
export function BackToTop() {
  if (!getSession().goesToTop) return null;
  return (
    <Link to="/top" className={buttonClass('secondary')}>
      戻る
    </Link>
  );
}

/** "トップへ戻る": the way back to Top at the end of a flow (primary) or beside its own way on (secondary). */
export function TopButton({ variant = 'secondary' }: { variant?: 'primary' | 'secondary' }) {
  return (
    <Link to="/top" className={buttonClass(variant)}>
      トップへ戻る
    </Link>
  );
}
