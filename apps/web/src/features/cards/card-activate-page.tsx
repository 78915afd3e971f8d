import { useCallback } from 'react';
import { Link, Navigate, useSearchParams } from 'react-router';
import type { z } from 'zod';
import { cardActivateRequestSchema, type Subuser } from '@sso/contracts/cards';
import { isUnactivated, LIMITS, type SubuserStatus } from '@sso/contracts/constants';
import { CARD_MESSAGES } from '@sso/contracts/screen-messages';
import { useCardsQuery } from '../../lib/cards-query.ts';
import { useSecretForm } from '../../lib/use-secret-form.ts';
import { Alert } from '../../ui/alert.tsx';
import { Button, buttonClass } from '../../ui/button.tsx';
import { CardFace } from '../../ui/card-face.tsx';
import { Field } from '../../ui/field.tsx';
import { LoadStatus } from '../../ui/load-status.tsx';
import faces from '../../ui/card-face.module.css';
import page from '../../ui/page.module.css';
import type { ActionOutcome } from '../../lib/use-pending-action.ts';
import { activateCard } from './cards-api.ts';
import styles from './cards.module.css';
import { useAfterCardChange } from './use-after-card-change.ts';

const schema = cardActivateRequestSchema.pick({ activation_key: true });
type KeyFields = z.infer<typeof schema>;

/** Which 6 digits the card's status asks for (SPEC.md section 5, "Activation key"). */
export const ACTIVATION_KEY_HINTS: Partial<Record<SubuserStatus, string>> = {
  unactivated: 'カード番号の下6桁を入力してください。',
  unactivated4Z: 'カードに同封の「ご利用開始のお知らせ」に記載のお問い合わせ番号の下6桁を入力してください。',
  unactivated4M: 'カード会員様ご本人の携帯電話番号の下6桁を入力してください。',
};

const BackToCards = () => (
  <Link to="/subusers/all" className={buttonClass('secondary')}>
    カード一覧へ
  </Link>
);

/**
 * Card activation (SPEC.md sections 2, 4 and 5): requires subuser_id, otherwise goes to the
 * all-cards list. It explains which 6 digits to enter for the card's status; a wrong key (902)
 * shows the message and clears the field, too many (203) show the lock message.
 */
export function CardActivatePage() {
  const [params] = useSearchParams();
  const subuserId = params.get('subuser_id');
  if (!subuserId) return <Navigate to="/subusers/all" replace />;
  return <CardActivate subuserId={subuserId} />;
}

function CardActivate({ subuserId }: { subuserId: string }) {
  const cards = useCardsQuery();
  const card = cards.data?.find((c) => c.subuser_id === subuserId);
  return (
    <>
      <h1>カードの有効化</h1>
      <LoadStatus loading={cards.isPending} error={cards.error} />
      {cards.isSuccess && !card && <p className={faces.empty}>{CARD_MESSAGES.cardNotFound}</p>}
      {card && !isUnactivated(card.status) && <p className={faces.empty}>{CARD_MESSAGES.notActivatable}</p>}
      {card && isUnactivated(card.status) ? <ActivateForm card={card} /> : cards.isSuccess && <BackToCards />}
    </>
  );
}

function ActivateForm({ card }: { card: Subuser }) {
  const afterChange = useAfterCardChange();

  const send = useCallback(
    async (form: KeyFields): Promise<ActionOutcome> => {
      const activated = await activateCard(card.subuser_id, form.activation_key);
      return afterChange(activated.esid, 'カードを有効化しました。');
    },
    [card.subuser_id, afterChange],
  );
  const { form, message, pending, onSubmit } = useSecretForm({ schema, secret: 'activation_key', send });
  const { register, formState } = form;

  return (
    <>
      <p className={page.lead}>次のカードを有効化します。認証キーを入力し、「有効化する」を押してください。</p>
      <div className={`${faces.item} ${styles.single}`}>
        <CardFace card={card} />
      </div>
      <p className={styles.keyHint}>
        <span className={page.emphasis}>認証キー：</span>
        {ACTIVATION_KEY_HINTS[card.status]}
      </p>
      <form noValidate onSubmit={onSubmit}>
        <Field
          id="activation_key"
          label="認証キー"
          hint={`${LIMITS.activationKeyLength}桁の半角数字を入力してください。`}
          type="text"
          inputMode="numeric"
          autoComplete="off"
          error={formState.errors.activation_key?.message}
          {...register('activation_key')}
        />
        <Alert message={message} />
        <div className={page.actions}>
          <Button type="submit" pending={pending}>
            有効化する
          </Button>
          <BackToCards />
        </div>
      </form>
    </>
  );
}
