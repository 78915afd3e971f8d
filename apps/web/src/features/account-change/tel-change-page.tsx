import { useCallback } from 'react';
import { Link, useNavigate } from 'react-router';
import type { z } from 'zod';
import { telChangeRequestSchema } from '@sso/contracts/account';
import { useMemberForm } from '../../lib/use-member-form.ts';
import { Alert } from '../../ui/alert.tsx';
import { Button, buttonClass } from '../../ui/button.tsx';
import { MobileTelField } from '../../ui/mobile-tel-field.tsx';
import { useFreshProof } from '../../ui/use-fresh-proof.tsx';
import page from '../../ui/page.module.css';
import { requestTelChange } from './tel-change-api.ts';
import type { HeldTelChange } from './tel-change-otp-page.tsx';

type TelFields = z.infer<typeof telChangeRequestSchema>;

/**
 * Login mobile number (decision 0014; /user/tel): the number to log in with, added or replaced. An
 * SMS code goes to it and the code screen follows, with the flow held in the history entry's state
 * (the server's member flow is the authority). The answer never says whether the number is
 * someone's: that shows only at the code step, as a neutral 902. Adding a login identifier asks
 * for the current password first unless this session proved it lately (decision 0012).
 */
export function TelChangePage() {
  const navigate = useNavigate();
  const { withProof, prompt: proofPrompt } = useFreshProof();
  const send = useCallback(
    async (values: TelFields) => {
      const outcome = await withProof(() => requestTelChange(values.tel));
      if (!outcome.done) return undefined;
      const res = outcome.value;
      const held: HeldTelChange = { registerToken: res.register_token, tel: res.tel };
      void navigate('/user/tel/otp', { state: held });
      return 'leaving' as const;
    },
    [navigate, withProof],
  );
  const { form, message, pending, onSubmit } = useMemberForm({ schema: telChangeRequestSchema, defaultValues: { tel: '' }, send });

  return (
    <>
      <h1>ログイン用携帯電話番号の登録</h1>
      <p className={page.lead}>
        ログインに使う携帯電話番号を入力し、「送信する」を押してください。入力した携帯電話番号宛てに、SMSでワンタイムパスワードをお送りします。
      </p>
      <p className={page.lead}>ワンタイムパスワードの認証が済むと、この携帯電話番号でログインできるようになります。登録済みの番号は置き換わります。</p>
      <form noValidate onSubmit={onSubmit}>
        <MobileTelField registration={form.register('tel')} error={form.formState.errors.tel?.message} />
        <Alert message={message} />
        <div className={page.actions}>
          <Button type="submit" pending={pending}>
            送信する
          </Button>
          {/* Reached from /user (登録情報), where the login number is shown: the way back goes there. */}
          <Link to="/user" className={buttonClass('secondary')}>
            登録情報へ戻る
          </Link>
        </div>
      </form>
      {proofPrompt}
    </>
  );
}
