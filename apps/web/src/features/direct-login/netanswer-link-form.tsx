import { useCallback } from 'react';
import type { z } from 'zod';
import { netAnswerAddRequestSchema, type Subuser } from '@sso/contracts/cards';
import { CARD_MESSAGES } from '@sso/contracts/screen-messages';
import { useSecretForm } from '../../lib/use-secret-form.ts';
import { Alert } from '../../ui/alert.tsx';
import { Button } from '../../ui/button.tsx';
import { Field } from '../../ui/field.tsx';
import type { ActionOutcome } from '../../lib/use-pending-action.ts';
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
  const send = useCallback(
    async (form: LinkFields): Promise<ActionOutcome> => {
      await linkNetAnswer(card.subuser_id, form.na_id, form.na_password);
      // The hand-off shows its own failures on the page; this form shows the link's.
      return onLinked();
    },
    [card.subuser_id, onLinked],
  );
  const { form, message, pending, onSubmit } = useSecretForm({ schema: linkSchema, secret: 'na_password', send });
  const { register, formState } = form;

  return (
    <form noValidate onSubmit={onSubmit}>
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
