import { useState } from 'react';
import { Navigate } from 'react-router';
import { formatPoints } from '../../lib/point-info.ts';
import { TopButton } from '../../ui/back-to-top.tsx';
import page from '../../ui/page.module.css';
import { SummaryList } from '../../ui/summary-list.tsx';
import { getTransferResult } from './transfer-store.ts';
import { Steps } from '../../ui/steps.tsx';
import { TRANSFER_STEPS } from './transfer-steps.ts';

/**
 * Point transfer finished (SPEC.md section 2, /aqf/transfer/open/done): the points moved and the
 * balances after the transfer, from the transfer's answer. Without one it goes to the summary.
 */
export function TransferDonePage() {
  const [result] = useState(getTransferResult);
  if (!result) return <Navigate to="/aqf/transfer/open" replace />;
  return (
    <>
      <h1>ポイント移行完了</h1>
      <Steps labels={TRANSFER_STEPS} current={4} />
      <p className={page.lead}>オープン会員のポイントをカードへ移行しました。</p>
      <SummaryList
        rows={[
          { label: '移行したポイント', value: formatPoints(result.moved) },
          { label: 'オープン会員のポイント残高', value: formatPoints(result.open) },
          { label: 'カードのポイント残高', value: formatPoints(result.card) },
        ]}
      />
      <div className={page.actions}>
        <TopButton variant="primary" />
      </div>
    </>
  );
}
