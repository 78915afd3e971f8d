import { Link } from 'react-router';
import { POINT_MESSAGES } from '@sso/contracts/screen-messages';
import type { TopPoints } from '@sso/contracts/top';
import { useCardsQuery } from '../../lib/cards-query.ts';
import { usePointInfoQuery } from '../../lib/point-info.ts';
import { addCardPath, transferOffer } from '../../lib/transfer-eligibility.ts';
import styles from './top.module.css';

/**
 * Top's points (SPEC.md sections 2 and 6; decisions 0006 and 0016): the balances the member holds,
 * from Top's summary, or that the point ledger could not be read (the rest of Top is shown all the
 * same). Then the entries: a card member without an open account may link one; a member with an open
 * account is offered the transfer only where it can succeed (lib/transfer-eligibility.ts), and is
 * otherwise told what to do: add a point-capable card, or nothing, the balance being 0. While the
 * point info loads, or if it failed, a card member is offered the link, which says if it is done already.
 */
export function TopPointEntries({ isOpenMember, points }: { isOpenMember: boolean; points: TopPoints }) {
  const info = usePointInfoQuery();
  const cards = useCardsQuery();
  const hasOpenAccount = info.data?.is_open_point === true;
  const holdsPoints = points.state === 'unavailable' || points.open !== null || points.card !== null;
  if (isOpenMember && !hasOpenAccount && !holdsPoints) return null;
  const offer = info.data && cards.data ? transferOffer(info.data, cards.data) : { kind: 'none' as const };
  return (
    <section className={styles.section} aria-labelledby="points-heading">
      <h2 id="points-heading">ポイント</h2>
      <Balances points={points} />
      {(offer.kind === 'add-card' || offer.kind === 'nothing-to-move') && <p className={styles.note}>{offer.message}</p>}
      <ul className={styles.list}>
        {!isOpenMember && !hasOpenAccount && (
          <li>
            <Link to="/link/open">オープン会員のポイントを連携する</Link>
          </li>
        )}
        {offer.kind === 'transfer' && (
          <li>
            <Link to="/aqf/transfer/open">ポイントをカードへ移行する</Link>
          </li>
        )}
        {offer.kind === 'add-card' && (
          <li>
            <Link to={addCardPath(isOpenMember)}>カードを登録する</Link>
          </li>
        )}
      </ul>
    </section>
  );
}

const pointsText = (n: number) => `${n.toLocaleString('ja-JP')}ポイント`;

/** The balances of the accounts the member holds; none shown for an account they do not hold. */
function Balances({ points }: { points: TopPoints }) {
  if (points.state === 'unavailable') return <p className={styles.note} role="status">{POINT_MESSAGES.balanceUnavailable}</p>;
  if (points.open === null && points.card === null) return null;
  return (
    <dl className={styles.balances}>
      {points.open !== null && (
        <>
          <dt>オープン会員のポイント</dt>
          <dd>{pointsText(points.open)}</dd>
        </>
      )}
      {points.card !== null && (
        <>
          <dt>カードのポイント</dt>
          <dd>{pointsText(points.card)}</dd>
        </>
      )}
    </dl>
  );
}
