import { Link } from 'react-router';
import type { Subuser } from '@sso/contracts/cards';
import { POINT_MESSAGES } from '@sso/contracts/screen-messages';
import type { PointInfoResponse } from '@sso/contracts/points';
import { useCardsQuery } from '../../lib/cards-query.ts';
import { useIsOpenMemberQuery } from '../../lib/is-open-member.ts';
import { formatPoints, usePointInfoQuery } from '../../lib/point-info.ts';
import { Alert } from '../../ui/alert.tsx';
import { TopButton } from '../../ui/back-to-top.tsx';
import { buttonClass } from '../../ui/button.tsx';
import { LoadStatus } from '../../ui/load-status.tsx';
import page from '../../ui/page.module.css';
import { SummaryList } from '../../ui/summary-list.tsx';
import { addCardPath, transferRefusal } from '../../lib/transfer-eligibility.ts';
import { Steps } from '../../ui/steps.tsx';
import { TRANSFER_STEPS } from './transfer-steps.ts';

/**
 * Point transfer summary (SPEC.md section 2, "Point merge summary and transfer screens"): the open
 * and card balances, then either exactly one of the three reasons the transfer cannot start (no
 * open account, no point-capable card, nothing to move) or the way to the card choice. Without an
 * eligible card it offers the way to add one, by the member's kind (the user attribute's
 * is_user_open, decision 0016): an open member's holder check, or the all-cards list for a card
 * member who linked an open account.
 */
export function TransferSummaryPage() {
  const info = usePointInfoQuery();
  const cards = useCardsQuery();
  const isOpenMember = useIsOpenMemberQuery();
  return (
    <>
      <h1>ポイント移行</h1>
      <Steps labels={TRANSFER_STEPS} current={1} />
      <LoadStatus loading={info.isPending || cards.isPending || isOpenMember.isPending} error={info.error ?? cards.error} />
      {info.isSuccess && cards.isSuccess && !isOpenMember.isPending && <Summary info={info.data} cards={cards.data} isOpenMember={isOpenMember.data} />}
    </>
  );
}

/** isOpenMember is undefined if the attribute could not be read: then no way to add a card is offered, rather than a wrong one. */
function Summary({ info, cards, isOpenMember }: { info: PointInfoResponse; cards: Subuser[]; isOpenMember: boolean | undefined }) {
  const refusal = transferRefusal(info, cards);
  const rows = [
    ...(info.is_open_point ? [{ label: 'オープン会員のポイント', value: formatPoints(info.aqf_point_open) }] : []),
    ...(info.is_na_point ? [{ label: 'カードのポイント', value: formatPoints(info.aqf_point_na) }] : []),
  ];
  return (
    <>
      <p className={page.lead}>
        オープン会員として貯めたポイントを、ポイントが貯まるカードへ移行できます。移行すると、オープン会員のポイントはすべてカードのポイントになります。
      </p>
      {rows.length > 0 && <SummaryList rows={rows} />}
      <Alert message={refusal} />
      <div className={page.actions}>
        {!refusal && (
          <Link to="/aqf/transfer/open/select" className={buttonClass()}>
            移行先のカードを選ぶ
          </Link>
        )}
        {/* No eligible card: the way to add one (an open member's holder check; a card member's all-cards list). */}
        {refusal === POINT_MESSAGES.noEligibleCard && isOpenMember !== undefined && (
          <Link to={addCardPath(isOpenMember)} className={buttonClass()}>
            カードを登録する
          </Link>
        )}
        <TopButton />
      </div>
    </>
  );
}
