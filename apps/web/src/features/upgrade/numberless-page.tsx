import { useCallback } from 'react';
import { Link, useNavigate } from 'react-router';
import { numberlessRequestSchema } from '@sso/contracts/upgrade';
import type { z } from 'zod';
import { useMemberForm } from '../../lib/use-member-form.ts';
import { Alert } from '../../ui/alert.tsx';
import { Button, buttonClass } from '../../ui/button.tsx';
import { MobileTelField } from '../../ui/mobile-tel-field.tsx';
import page from '../../ui/page.module.css';
import { CHECK_PATHS, type HeldCardCheck } from './held-check.ts';
import { startNumberless } from './upgrade-api.ts';
import { OPEN_CARD_HEADINGS } from './upgrade-steps.ts';
import { OpenMembersOnly } from './open-members-only.tsx';

type TelFields = z.infer<typeof numberlessRequestSchema>;

/**
 * A numberless card (docs/decisions/0006; /open/card/numberless): no printed number, so it is found
 * by its holder's mobile, and an SMS code to that mobile proves it. The answer is the same whether
 * or not the number holds such a card, so the screen says "if".
 */
export function NumberlessPage() {
  return (
    <OpenMembersOnly title={OPEN_CARD_HEADINGS.numberless}>
      <NumberlessForm />
    </OpenMembersOnly>
  );
}

function NumberlessForm() {
  const navigate = useNavigate();
  const send = useCallback(
    async (values: TelFields) => {
      const res = await startNumberless(values.tel);
      const held: HeldCardCheck = { registerToken: res.register_token, check: 'numberless', sentTo: res.tel };
      void navigate(CHECK_PATHS.numberless, { state: held });
      return 'leaving' as const;
    },
    [navigate],
  );
  const { form, message, pending, onSubmit } = useMemberForm({ schema: numberlessRequestSchema, defaultValues: { tel: '' }, send });

  return (
    <>
      <p className={page.lead}>
        ナンバーレスカード（カード番号が印字されていないカード）にご登録の携帯電話番号を入力し、「送信する」を押してください。その携帯電話番号宛てに、SMSでワンタイムパスワードをお送りします。
      </p>
      <form noValidate onSubmit={onSubmit}>
        <MobileTelField registration={form.register('tel')} error={form.formState.errors.tel?.message} />
        <Alert message={message} />
        <div className={page.actions}>
          <Button type="submit" pending={pending}>
            送信する
          </Button>
          <Link to="/open/card" className={buttonClass('secondary')}>
            戻る
          </Link>
        </div>
      </form>
    </>
  );
}
