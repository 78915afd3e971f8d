import { useCallback, useState } from 'react';
import { useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { PRODUCT_NAME } from '@sso/contracts/terms';
import { showFailure } from '../../lib/failure-view.ts';
import { formatPoints, usePointInfoQuery } from '../../lib/point-info.ts';
import { clearOAuthClient, clearTokens } from '../../lib/records.ts';
import { Alert } from '../../ui/alert.tsx';
import { BackToTop } from '../../ui/back-to-top.tsx';
import { Button } from '../../ui/button.tsx';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { LoadStatus } from '../../ui/load-status.tsx';
import page from '../../ui/page.module.css';
import { FreshProofNotice } from '../../ui/fresh-proof-notice.tsx';
import { useFreshProof } from '../../ui/use-fresh-proof.tsx';
import { usePendingAction, type ActionOutcome } from '../../lib/use-pending-action.ts';
import { cancelMembership } from './cancel-api.ts';
import { useTopQuery } from './top-api.ts';

/**
 * Withdrawal (SPEC.md section 2, /user/cancel): what withdrawal does, the point-loss warning for
 * open members, and a confirm dialog before POST /api/auth/cancel. The member type comes from the
 * same answers as Top; without it the page offers no withdrawal, since the warning could be missing.
 * Without a recent proof on this session the current password is asked first (ui/use-fresh-proof.tsx).
 */
export function CancelPage() {
  const query = useTopQuery();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const [message, setMessage] = useState<string>();
  const { withProof, prompt: proofPrompt } = useFreshProof();

  const withdraw = useCallback(async (): Promise<ActionOutcome> => {
    setMessage(undefined);
    try {
      // The server asks for the current password first unless this session proved it lately (decision 0012).
      const outcome = await withProof(() => cancelMembership());
      if (!outcome.done) {
        setConfirming(false);
        return;
      }
    } catch (e) {
      setConfirming(false);
      showFailure(e, { setMessage });
      return;
    }
    // Every token of the member is revoked by the server: nothing of the login is kept here.
    clearTokens();
    clearOAuthClient();
    // The cache is cleared once this page is gone: while the next page's chunk loads, a
    // page still shown would fetch its cleared queries again, with no token, into the error flow.
    await navigate('/user/cancel/done', { replace: true });
    queryClient.clear();
    return 'leaving';
  }, [navigate, queryClient, withProof]);
  const { pending, run } = usePendingAction(withdraw);

  return (
    <>
      <h1>退会</h1>
      <LoadStatus loading={query.isPending} error={query.error} />
      <Alert message={message} />
      {query.isSuccess && (
        <>
          <p className={page.lead}>退会すると、{PRODUCT_NAME}でログインできなくなり、登録されているカードとの連携はすべて解除されます。</p>
          <p className={page.lead}>退会後は、同じメールアドレスや電話番号で新たに登録できます。</p>
          <p className={page.lead}>ログイン・操作履歴は、不正利用の調査のため退会後1年間保管し、その後削除します。</p>
          <PointLossWarning isOpenMember={query.data.attribute.is_user_open} />
          <FreshProofNotice />
          <div className={page.actions}>
            <Button type="button" pending={pending} onClick={() => setConfirming(true)}>
              退会する
            </Button>
            <BackToTop />
          </div>
        </>
      )}
      <ConfirmDialog
        open={confirming}
        title="退会しますか？"
        confirmLabel="退会する"
        pending={pending}
        onConfirm={() => void run()}
        onCancel={() => setConfirming(false)}
      >
        <p className={page.dialogText}>退会すると元に戻すことはできません。</p>
      </ConfirmDialog>
      {proofPrompt}
    </>
  );
}

/**
 * The point-loss warning (SPEC.md sections 2 and 6): for open members, and for card members who
 * linked an open account that still holds points (decision 0016); with the open balance once it is
 * known.
 */
function PointLossWarning({ isOpenMember }: { isOpenMember: boolean }) {
  const info = usePointInfoQuery();
  const openPoints = info.data?.is_open_point ? info.data.aqf_point_open : undefined;
  if (!isOpenMember && !openPoints) return null;
  const held = openPoints === undefined ? '' : `（オープン会員のポイント：${formatPoints(openPoints)}）`;
  return <p className={`${page.lead} ${page.emphasis}`}>保有しているポイントは失効します。{held}</p>;
}
