import { useCallback } from 'react';
import { Link, Navigate, useNavigate } from 'react-router';
import type { z } from 'zod';
import type { Subuser } from '@sso/contracts/cards';
import { transferSelectRequestSchema, type PointInfoResponse } from '@sso/contracts/points';
import { useCardsQuery } from '../../lib/cards-query.ts';
import { formatPoints, usePointInfoQuery } from '../../lib/point-info.ts';
import { useMemberForm } from '../../lib/use-member-form.ts';
import { Alert } from '../../ui/alert.tsx';
import { Button, buttonClass } from '../../ui/button.tsx';
import { LoadStatus } from '../../ui/load-status.tsx';
import page from '../../ui/page.module.css';
import { RadioGroup } from '../../ui/radio-group.tsx';
import { SummaryList } from '../../ui/summary-list.tsx';
import type { ActionOutcome } from '../../lib/use-pending-action.ts';
import { selectTransfer } from './points-api.ts';
import { transferCards, transferRefusal } from '../../lib/transfer-eligibility.ts';
import { holdTransfer, OTP_PATHS } from './transfer-store.ts';
import { Steps } from '../../ui/steps.tsx';
import { TRANSFER_STEPS } from './transfer-steps.ts';

type SelectFields = z.infer<typeof transferSelectRequestSchema>;

/**
 * Point transfer, card choice (SPEC.md section 2): the active point-capable cards as radios; the
 * choice sends the code and goes to the code screen of its destination (SMS or e-mail), holding
 * the answer like the sign-up holds its step. A member who cannot transfer goes back to the summary,
 * which says why.
 */
export function TransferSelectPage() {
  const info = usePointInfoQuery();
  const cards = useCardsQuery();
  if (info.isSuccess && cards.isSuccess && transferRefusal(info.data, cards.data)) {
    return <Navigate to="/aqf/transfer/open" replace />;
  }
  return (
    <>
      <h1>移行先カードの選択</h1>
      <Steps labels={TRANSFER_STEPS} current={2} />
      <LoadStatus loading={info.isPending || cards.isPending} error={info.error ?? cards.error} />
      {info.isSuccess && cards.isSuccess && <SelectForm info={info.data} cards={transferCards(cards.data)} />}
    </>
  );
}

function SelectForm({ info, cards }: { info: PointInfoResponse; cards: Subuser[] }) {
  const navigate = useNavigate();

  const send = useCallback(
    async (form: SelectFields): Promise<ActionOutcome> => {
      const held = holdTransfer(await selectTransfer(form.subuser_id));
      void navigate(OTP_PATHS[held.destination]);
      return 'leaving';
    },
    [navigate],
  );
  const { form, message, pending, onSubmit } = useMemberForm({
    schema: transferSelectRequestSchema,
    // One card is the only choice; with several the member picks one.
    defaultValues: { subuser_id: cards.length === 1 ? cards[0]!.subuser_id : '' },
    send,
  });
  const { register, formState } = form;
  // The last 4 digits name the card: the whole mask would wrap at its hyphens on a phone.
  const options = cards.map((c) => ({ value: c.subuser_id, label: `${c.card_name}（末尾${c.card_number_mask.slice(-4)}）` }));

  return (
    <>
      <p className={page.lead}>
        ポイントを移行するカードを選び、「ワンタイムパスワードを送信する」を押してください。カードにご登録の携帯電話番号（ご登録がない場合はメンバーIDのメールアドレス）へ、ワンタイムパスワードをお送りします。
      </p>
      <SummaryList rows={[{ label: '移行するポイント', value: formatPoints(info.aqf_point_open) }]} />
      <form noValidate onSubmit={onSubmit}>
        <RadioGroup id="subuser_id" legend="移行先のカード" options={options} error={formState.errors.subuser_id?.message} {...register('subuser_id')} />
        <Alert message={message} />
        <div className={page.actions}>
          <Button type="submit" pending={pending}>
            ワンタイムパスワードを送信する
          </Button>
          <Link to="/aqf/transfer/open" className={buttonClass('secondary')}>
            戻る
          </Link>
        </div>
      </form>
    </>
  );
}
