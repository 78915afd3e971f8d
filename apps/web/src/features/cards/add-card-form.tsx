import { useCallback } from 'react';
import { useCardForm, type CardValues } from '../../lib/use-card-form.ts';
import { Alert } from '../../ui/alert.tsx';
import { Button } from '../../ui/button.tsx';
import { CardFields } from '../../ui/card-fields.tsx';
import page from '../../ui/page.module.css';
import { addCardByNumber } from './cards-api.ts';
import { useAfterCardChange } from './use-after-card-change.ts';
import { addedNotice } from './waiting-cards.tsx';

/**
 * Add a card by its number, expiry and security code (decision 0006; the card sign-up's fields and
 * rules, SPEC.md section 5). The security code is the secret here: a refusal (902) clears it.
 */
export function AddCardForm() {
  const afterChange = useAfterCardChange();
  const send = useCallback(
    async (card: CardValues, reset: () => void) => {
      const added = await addCardByNumber(card);
      reset();
      return afterChange(added.esid, addedNotice(added.status));
    },
    [afterChange],
  );
  const { message, pending, onSubmit, cardFields } = useCardForm(send);

  return (
    <section className={page.section} aria-labelledby="add-heading">
      <h2 id="add-heading">カード番号で追加する</h2>
      <p className={page.lead}>お手持ちのカードの情報を入力してください。</p>
      <form noValidate onSubmit={onSubmit}>
        <CardFields {...cardFields} />
        <Alert message={message} />
        <Button type="submit" pending={pending}>
          カードを追加する
        </Button>
      </form>
    </section>
  );
}
