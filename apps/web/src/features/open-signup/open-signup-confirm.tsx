import { Alert } from '../../ui/alert.tsx';
import { Button } from '../../ui/button.tsx';
import page from '../../ui/page.module.css';
import type { SummaryRow } from '../../lib/profile-summary.ts';
import { SummaryList } from '../../ui/summary-list.tsx';
import { Steps } from '../../ui/steps.tsx';
import { OPEN_SIGNUP_STEPS } from './open-signup-steps.ts';

interface OpenSignupConfirmProps {
  rows: readonly SummaryRow[];
  message: string | undefined;
  pending: boolean;
  onRegister: () => void;
  onEdit: () => void;
}

/** The confirm mode of the open sign-up (SPEC.md section 2): the summary, Register and Edit. */
export function OpenSignupConfirm({ rows, message, pending, onRegister, onEdit }: OpenSignupConfirmProps) {
  return (
    <>
      <h1>登録内容の確認</h1>
      <Steps labels={OPEN_SIGNUP_STEPS} current={2} />
      <p className={page.lead}>
        以下の内容で登録します。よろしければ「登録する」を押してください。ご入力のメールアドレス宛てに、本登録のご案内メールをお送りします。
      </p>
      <SummaryList rows={rows} />
      <Alert message={message} />
      <div className={page.actions}>
        <Button type="button" pending={pending} onClick={onRegister}>
          登録する
        </Button>
        <Button type="button" variant="secondary" disabled={pending} onClick={onEdit}>
          修正する
        </Button>
      </div>
    </>
  );
}
