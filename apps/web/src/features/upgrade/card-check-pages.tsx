import { useCallback, type ReactNode } from 'react';
import type { Path } from 'react-hook-form';
import { Link, Navigate, useLocation, useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import type { CardResultResponse } from '@sso/contracts/cards';
import { upgradeConfirmRequestSchema } from '@sso/contracts/upgrade';
import { otpSchema } from '../../lib/use-otp-form.ts';
import { useSecretForm, type SecretForm } from '../../lib/use-secret-form.ts';
import { Alert } from '../../ui/alert.tsx';
import { Button, buttonClass } from '../../ui/button.tsx';
import { OtpField } from '../../ui/otp-field.tsx';
import { PinField } from '../../ui/pin-field.tsx';
import page from '../../ui/page.module.css';
import { Steps } from '../../ui/steps.tsx';
import type { ActionOutcome } from '../../lib/use-pending-action.ts';
import { addedCardOf, heldCheckOf, type HeldCardCheck } from './held-check.ts';
import { confirmCardCode, confirmCardPin, confirmNumberless } from './upgrade-api.ts';
import { OPEN_CARD_HEADINGS, OPEN_CARD_STEPS } from './upgrade-steps.ts';

/** The PIN alone (4 digits, SPEC.md section 5): the request has no bank account digits (docs/decisions/0006). */
const pinSchema = z.object({ pin: upgradeConfirmRequestSchema.shape.pin.unwrap() });

interface CheckStepProps<T extends Record<string, string>> {
  held: HeldCardCheck;
  title: string;
  lead: ReactNode;
  schema: z.ZodType<T, T> & { shape: Record<keyof T, unknown> };
  secret: Path<T>;
  field: (form: SecretForm<T>) => ReactNode;
  confirm: (registerToken: string, values: T) => Promise<CardResultResponse>;
  /** Where the member starts again. */
  back: string;
}

/**
 * One holder check of an open member's card (docs/decisions/0006 and 0016): the code or the PIN.
 * A wrong one (902) clears the field and says so, a lock (203) is shown, a flow that is over (300)
 * goes to the error page; the right one links the card, every query is read again (Top, the cards,
 * the points) and the finish page follows.
 */
function CheckStep<T extends Record<string, string>>({ held, title, lead, schema, secret, field, confirm, back }: CheckStepProps<T>) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();

  const send = useCallback(
    async (values: T): Promise<ActionOutcome> => {
      const added = await confirm(held.registerToken, values);
      await queryClient.invalidateQueries();
      void navigate('/open/card/done', { replace: true, state: addedCardOf(added) });
      return 'leaving';
    },
    [confirm, held, navigate, queryClient],
  );
  const { form, message, pending, onSubmit } = useSecretForm({ schema, secret, send });

  return (
    <>
      <h1>{title}</h1>
      <Steps labels={OPEN_CARD_STEPS} current={2} />
      <p className={page.lead}>{lead}</p>
      <form noValidate onSubmit={onSubmit}>
        {field(form)}
        <Alert message={message} />
        <div className={page.actions}>
          <Button type="submit" pending={pending}>
            認証する
          </Button>
          <Link to={back} className={buttonClass('secondary')}>
            最初からやり直す
          </Link>
        </div>
      </form>
    </>
  );
}

/** Renders a check screen from its held check (the history state); without one, the card's first screen. */
function WithHeld({ start, children }: { start: string; children: (held: HeldCardCheck) => ReactNode }) {
  const { state, pathname } = useLocation();
  const held = heldCheckOf(state, pathname);
  return held ? children(held) : <Navigate to={start} replace />;
}

const codeField = (form: SecretForm<z.infer<typeof otpSchema>>) => (
  <OtpField registration={form.register('onetime_password')} error={form.formState.errors.onetime_password?.message} />
);

/** /open/card/otp: the code sent by SMS to the holder's mobile (OtpSMS) or by mail to the member (OtpEmail). */
export const CardOtpPage = () => <WithHeld start="/open/card">{(held) => <CardOtp held={held} />}</WithHeld>;

function CardOtp({ held }: { held: HeldCardCheck }) {
  const sentTo = <span className={page.emphasis}>（{held.sentTo}）</span>;
  const lead =
    held.check === 'OtpSMS' ? (
      <>カードにご登録の携帯電話番号{sentTo}宛てに、SMSでワンタイムパスワードを送信しました。ワンタイムパスワードを入力し、「認証する」を押してください。</>
    ) : (
      <>メンバーIDのメールアドレス{sentTo}宛てに、ワンタイムパスワードを送信しました。ワンタイムパスワードを入力し、「認証する」を押してください。</>
    );
  return (
    <CheckStep
      held={held}
      title={OPEN_CARD_HEADINGS.otp}
      lead={lead}
      schema={otpSchema}
      secret="onetime_password"
      field={codeField}
      confirm={(token, v) => confirmCardCode(token, v.onetime_password)}
      back="/open/card"
    />
  );
}

/** /open/card/pin: the card's PIN. */
export const CardPinPage = () => <WithHeld start="/open/card">{(held) => <CardPin held={held} />}</WithHeld>;

function CardPin({ held }: { held: HeldCardCheck }) {
  return (
    <CheckStep
      held={held}
      title={OPEN_CARD_HEADINGS.pin}
      lead="ご本人様確認のため、カードの暗証番号（4桁）を入力し、「認証する」を押してください。"
      schema={pinSchema}
      secret="pin"
      field={(form) => <PinField registration={form.register('pin')} error={form.formState.errors.pin?.message} />}
      confirm={(token, v) => confirmCardPin(token, v.pin)}
      back="/open/card"
    />
  );
}

/** /open/card/numberless/otp: the SMS code of a numberless card, sent only if the number holds one. */
export const NumberlessOtpPage = () => <WithHeld start="/open/card/numberless">{(held) => <NumberlessOtp held={held} />}</WithHeld>;

function NumberlessOtp({ held }: { held: HeldCardCheck }) {
  return (
    <CheckStep
      held={held}
      title={OPEN_CARD_HEADINGS.otp}
      lead={
        <>
          ご入力の携帯電話番号<span className={page.emphasis}>（{held.sentTo}）</span>
          でナンバーレスカードをお持ちの場合、SMSでワンタイムパスワードを送信しました。ワンタイムパスワードを入力し、「認証する」を押してください。
        </>
      }
      schema={otpSchema}
      secret="onetime_password"
      field={codeField}
      confirm={(token, v) => confirmNumberless(token, v.onetime_password)}
      back="/open/card/numberless"
    />
  );
}
