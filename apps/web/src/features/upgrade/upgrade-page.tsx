import { useCallback } from 'react';
import { Link, useNavigate } from 'react-router';
import { useCardForm, type CardValues } from '../../lib/use-card-form.ts';
import { Alert } from '../../ui/alert.tsx';
import { TopButton } from '../../ui/back-to-top.tsx';
import { Button } from '../../ui/button.tsx';
import { CardFields } from '../../ui/card-fields.tsx';
import page from '../../ui/page.module.css';
import { CHECK_PATHS, type HeldCardCheck } from './held-check.ts';
import { registerCard } from './upgrade-api.ts';
import { OPEN_CARD_HEADINGS } from './upgrade-steps.ts';
import { OpenMembersOnly } from './open-members-only.tsx';

/**
 * An open member's card (docs/decisions/0006 and 0016; /open/card): the card sign-up's card fields
 * (SPEC.md sections 2 and 5), then the holder check the card master names: an SMS or e-mail code,
 * or the card's PIN. A numberless card, which has no printed number, is found by its holder's mobile.
 */
export function OpenCardPage() {
  return (
    <OpenMembersOnly title={OPEN_CARD_HEADINGS.card}>
      <OpenCardForm />
    </OpenMembersOnly>
  );
}

function OpenCardForm() {
  const navigate = useNavigate();
  const send = useCallback(
    async (card: CardValues) => {
      const res = await registerCard(card);
      const held: HeldCardCheck = { registerToken: res.register_token, check: res.destination_to, sentTo: res.tel ?? res.email ?? '' };
      void navigate(CHECK_PATHS[held.check], { state: held });
      return 'leaving' as const;
    },
    [navigate],
  );
  const { message, pending, onSubmit, cardFields } = useCardForm(send);

  return (
    <>
      <p className={page.lead}>
        お手持ちのカードを登録すると、オープン会員のポイントをカードのポイントへ移行できます。カードの情報を入力し、「次へ」を押してください。ご本人様確認のため、ワンタイムパスワードまたは暗証番号の入力をお願いします。
      </p>
      <form noValidate onSubmit={onSubmit}>
        <CardFields {...cardFields} />
        <Alert message={message} />
        <div className={page.actions}>
          <Button type="submit" pending={pending}>
            次へ
          </Button>
          <TopButton />
        </div>
      </form>
      <p className={page.help}>
        カード番号が印字されていないカードは、カードにご登録の携帯電話番号で登録できます。
        <Link to="/open/card/numberless">ナンバーレスカードを登録する</Link>
      </p>
    </>
  );
}
