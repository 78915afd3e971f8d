import { Link, useLocation } from 'react-router';
import { useCardsQuery } from '../../lib/cards-query.ts';
import { usePointInfoQuery } from '../../lib/point-info.ts';
import { transferOffer } from '../../lib/transfer-eligibility.ts';
import { TopButton } from '../../ui/back-to-top.tsx';
import { buttonClass } from '../../ui/button.tsx';
import page from '../../ui/page.module.css';
import { Steps } from '../../ui/steps.tsx';
import { heldAddedCard } from './held-check.ts';
import { OPEN_CARD_HEADINGS, OPEN_CARD_STEPS } from './upgrade-steps.ts';

/**
 * An open member's card, added (docs/decisions/0016; /open/card/done). The way on is the point
 * transfer where it can succeed now (lib/transfer-eligibility.ts); a card not yet activated is
 * activated first, on the unactivated-cards list.
 */
export function OpenCardDonePage() {
  const added = heldAddedCard(useLocation().state);
  const info = usePointInfoQuery();
  const cards = useCardsQuery();
  const offer = info.data && cards.data ? transferOffer(info.data, cards.data) : undefined;
  const inactive = added?.active === false;
  return (
    <>
      <h1>{OPEN_CARD_HEADINGS.done}</h1>
      <Steps labels={OPEN_CARD_STEPS} current={3} />
      <p className={page.lead}>
        {added ? <>「<span className={page.emphasis}>{added.card_name}</span>」を登録しました。</> : 'カードを登録しました。'}
      </p>
      {inactive && <p className={page.lead}>このカードは、有効化の手続きが済むとご利用いただけます。</p>}
      {offer?.kind === 'transfer' && <p className={page.lead}>オープン会員のポイントを、このカードのポイントへ移行できます。</p>}
      {(offer?.kind === 'add-card' || offer?.kind === 'nothing-to-move') && !inactive && <p className={page.lead}>{offer.message}</p>}
      <div className={page.actions}>
        {offer?.kind === 'transfer' && (
          <Link to="/aqf/transfer/open" className={buttonClass()}>
            ポイントをカードへ移行する
          </Link>
        )}
        {inactive && (
          <Link to="/subusers/unactivated" className={buttonClass(offer?.kind === 'transfer' ? 'secondary' : 'primary')}>
            カードを有効化する
          </Link>
        )}
        <Link to="/subusers/all" className={buttonClass('secondary')}>
          カード一覧へ
        </Link>
        <TopButton />
      </div>
    </>
  );
}
