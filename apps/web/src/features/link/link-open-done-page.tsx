import { Link } from 'react-router';
import { formatPoints, usePointInfoQuery } from '../../lib/point-info.ts';
import { TopButton } from '../../ui/back-to-top.tsx';
import { buttonClass } from '../../ui/button.tsx';
import { LoadStatus } from '../../ui/load-status.tsx';
import page from '../../ui/page.module.css';
import { SummaryList } from '../../ui/summary-list.tsx';

/**
 * Open-account link finished (SPEC.md section 2, /link/open/done): the open points the ID now
 * holds, read from the point info so that a reload shows them too, and the way to move them to a card.
 */
export function LinkOpenDonePage() {
  const info = usePointInfoQuery();
  return (
    <>
      <h1>オープン会員情報の連携完了</h1>
      <p className={page.lead}>オープン会員の情報を連携しました。オープン会員のポイントは、このメンバーIDでご利用いただけます。</p>
      <LoadStatus loading={info.isPending} error={info.error} />
      {info.isSuccess && <SummaryList rows={[{ label: 'オープン会員のポイント', value: formatPoints(info.data.aqf_point_open) }]} />}
      <div className={page.actions}>
        <Link to="/aqf/transfer/open" className={buttonClass()}>
          ポイントをカードへ移行する
        </Link>
        <TopButton />
      </div>
    </>
  );
}
