import { useCallback, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import { cardAddFormSchema } from '@sso/contracts/cards';
import { CLIENT_MESSAGES } from '@sso/contracts/messages';
import { normalisedResolver } from '../../lib/normalised-resolver.ts';
import { showFailure } from '../../lib/failure-view.ts';
import { useFailureView } from '../../lib/use-failure-view.ts';
import { Alert } from '../../ui/alert.tsx';
import { Button } from '../../ui/button.tsx';
import { CardFields } from '../../ui/card-fields.tsx';
import page from '../../ui/page.module.css';
import { usePendingAction, type ActionOutcome } from '../../ui/use-pending-action.ts';
import { addCardByNumber } from './cards-api.ts';
import { useAfterCardChange } from './use-after-card-change.ts';
import { addedNotice } from './waiting-cards.tsx';

const schema = cardAddFormSchema;
type CardInput = z.input<typeof schema>;
type CardValues = z.output<typeof schema>;
const FIELDS = ['cardnumber', 'cc_month', 'cc_year', 'cvc'] as const;
const EMPTY: CardInput = { cardnumber: '', cc_month: '', cc_year: '', cvc: '' };

/**
 * Add a card by its number, expiry and security code (decision 0006; the card sign-up's fields and
 * rules, SPEC.md section 5). The security code is the secret here: a refusal (902) clears it.
 */
export function AddCardForm() {
  const afterChange = useAfterCardChange();
  const [message, setMessage] = useState<string>();
  const { register, handleSubmit, setError, setValue, clearErrors, control, reset, formState } = useForm<CardInput, unknown, CardValues>({
    resolver: normalisedResolver(zodResolver(schema)),
    mode: 'onBlur',
    reValidateMode: 'onChange',
    defaultValues: EMPTY,
  });
  const cardNumber = useWatch({ control, name: 'cardnumber' }) ?? '';
  const clearCvc = useCallback(() => {
    setValue('cvc', '');
    clearErrors('cvc');
  }, [setValue, clearErrors]);
  const view = useFailureView({ setMessage, setError, fields: FIELDS, clearSecrets: clearCvc });

  const submit = useCallback(
    async (form: CardValues): Promise<ActionOutcome> => {
      setMessage(undefined);
      try {
        const added = await addCardByNumber(form);
        reset(EMPTY);
        return afterChange(added.esid, addedNotice(added.status));
      } catch (e) {
        showFailure(e, view);
      }
    },
    [afterChange, reset, view],
  );
  const { pending, run } = usePendingAction(submit);

  return (
    <section className={page.section} aria-labelledby="add-heading">
      <h2 id="add-heading">カード番号で追加する</h2>
      <p className={page.lead}>お手持ちのカードの情報を入力してください。</p>
      <form noValidate onSubmit={handleSubmit(run, () => setMessage(CLIENT_MESSAGES['C99-000400']))}>
        <CardFields register={register} errors={formState.errors} cardNumber={cardNumber} clearCvc={clearCvc} />
        <Alert message={message} />
        <Button type="submit" pending={pending}>
          カードを追加する
        </Button>
      </form>
    </section>
  );
}
