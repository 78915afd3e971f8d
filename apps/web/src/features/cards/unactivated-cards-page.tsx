import { Link } from 'react-router';
import { isUnactivated } from '@sso/contracts/constants';
import { useCardsQuery } from '../../lib/cards-query.ts';
import { buttonClass } from '../../ui/button.tsx';
import { LoadStatus } from '../../ui/load-status.tsx';
import faces from '../../ui/card-face.module.css';
import page from '../../ui/page.module.css';
import { RegisteredCards } from './registered-cards.tsx';

/**
 * The unactivated cards (SPEC.md section 2, /subusers/unactivated; the direct-login targets
 * card_activate and portal_card_activate): each links to its activation.
 */
export function UnactivatedCardsPage() {
  const cards = useCardsQuery();
  const unactivated = cards.data?.filter((c) => isUnactivated(c.status)) ?? [];
  return (
    <>
      <h1>有効化が必要なカード</h1>
      <LoadStatus loading={cards.isPending} error={cards.error} />
      {cards.isSuccess &&
        (unactivated.length === 0 ? (
          <p className={faces.empty}>有効化が必要なカードはありません。</p>
        ) : (
          <>
            <p className={page.lead}>ご利用いただくには、カードの有効化が必要です。有効化するカードを選んでください。</p>
            <RegisteredCards cards={unactivated} />
          </>
        ))}
      <Link to="/subusers/all" className={buttonClass('secondary')}>
        カード一覧へ
      </Link>
    </>
  );
}
