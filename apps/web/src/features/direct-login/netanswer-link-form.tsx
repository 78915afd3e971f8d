import { useCallback, useState } from 'react';
import type { z } from 'zod';
import { netAnswerAddRequestSchema, type Subuser } from '@sso/contracts/cards';
import { CARD_MESSAGES, CLIENT_MESSAGES } from '@sso/contracts/messages';
import { showFailure } from '../../lib/failure-view.ts';
import { useSecretForm } from '../../lib/use-secret-form.ts';
import { Alert } from '../../ui/alert.tsx';
import { Button } from '../../ui/button.tsx';
import { Field } from '../../ui/field.tsx';
import { usePendingAction, type ActionOutcome } from '../../ui/use-pending-action.ts';
import page from '../../ui/page.module.css';
import { linkNetAnswer } from './direct-login-api.ts';

const linkSchema = netAnswerAddRequestSchema.pick({ na_id: true, na_password: true });
type LinkFields = z.infer<typeof linkSchema>;

/**
 * The Net Answer id and password of a card that has none linked yet (SPEC.md sections 5 and 7,
 * /api/subuser/na/add; decision 0006). A wrong pair (902) clears the password; once linked, the
 * caller hands the member to Net Answer (`onLinked`, which leaves the page).
 */
export function NetAnswerLinkForm({ card, onLinked }: { card: Subuser; onLinked: () => Promise<ActionOutcome> }) {
  const [message, setMessage] = useState<string>();
  const { form, view } = useSecretForm(linkSchema, 'na_password', setMessage);
  const { register, handleSubmit, formState } = form;

  const submit = useCallback(
    async (form: LinkFields): Promise<ActionOutcome> => {
      setMessage(undefined);
      try {
        await linkNetAnswer(card.subuser_id, form.na_id, form.na_password);
      } catch (e) {
        showFailure(e, view);
        return;
      }
      return onLinked();
    },
    [card.subuser_id, onLinked, view],
  );
  const { pending, run } = usePendingAction(submit);

  return (
    <form noValidate onSubmit={handleSubmit(run, () => setMessage(CLIENT_MESSAGES['C99-000400']))}>
      <p className={page.lead}>{CARD_MESSAGES.netAnswerRequired}</p>
      <p className={page.lead}>
        <span className={page.emphasis}>
          {card.card_name}（{card.card_number_mask}）
        </span>
        のNet Answer IDとパスワードを入力してください。
      </p>
      <Field id="na_id" label="Net Answer ID" type="text" autoComplete="username" error={formState.errors.na_id?.message} {...register('na_id')} />
      <Field
        id="na_password"
        label="パスワード"
        type="password"
        autoComplete="current-password"
        error={formState.errors.na_password?.message}
        {...register('na_password')}
      />
      <Alert message={message} />
      <div className={page.actions}>
        <Button type="submit" pending={pending}>
          登録してNet Answerへ
        </Button>
      </div>
    </form>
  );
}
