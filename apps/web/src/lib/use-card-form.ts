import { useCallback, useMemo, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import { cardAddFormSchema } from '@sso/contracts/cards';
import { CLIENT_MESSAGES } from '@sso/contracts/messages';
import { usePendingAction, type ActionOutcome } from '../ui/use-pending-action.ts';
import { showFailure } from './failure-view.ts';
import { normalisedResolver } from './normalised-resolver.ts';
import { useFailureView } from './use-failure-view.ts';

const schema = cardAddFormSchema;
type CardInput = z.input<typeof schema>;
export type CardValues = z.output<typeof schema>;
const FIELDS = ['cardnumber', 'cc_month', 'cc_year', 'cvc'] as const;
const EMPTY: CardInput = { cardnumber: '', cc_month: '', cc_year: '', cvc: '' };

/**
 * The form of a card named by number, expiry and security code, on its own (the add by number,
 * decision 0006; an open member's card, decision 0016), with the card sign-up's rules (SPEC.md
 * sections 2 and 5): checked on blur and again on change, C99-000400 when invalid, 901 errors on the
 * fields, and the security code, the secret here, cleared on a refusal (902) and for a house card.
 * `send` gets the values and a reset to empty fields. Its `cardFields` are ui/card-fields.tsx's props.
 */
export function useCardForm(send: (card: CardValues, reset: () => void) => Promise<ActionOutcome>) {
  const [message, setMessage] = useState<string>();
  const form = useForm<CardInput, unknown, CardValues>({ resolver: normalisedResolver(zodResolver(schema)), mode: 'onBlur', reValidateMode: 'onChange', defaultValues: EMPTY });
  const { register, setValue, clearErrors, setError, control, reset, formState, handleSubmit } = form;
  const cardNumber = useWatch({ control, name: 'cardnumber' }) ?? '';
  const clearCvc = useCallback(() => {
    setValue('cvc', '');
    clearErrors('cvc');
  }, [setValue, clearErrors]);
  const view = useFailureView({ setMessage, setError, fields: FIELDS, clearSecrets: clearCvc });

  const submit = useCallback(
    async (card: CardValues): Promise<ActionOutcome> => {
      setMessage(undefined);
      try {
        return await send(card, () => reset(EMPTY));
      } catch (e) {
        showFailure(e, view);
      }
    },
    [send, reset, view],
  );
  const { pending, run } = usePendingAction(submit);
  const onSubmit = useMemo(() => handleSubmit(run, () => setMessage(CLIENT_MESSAGES['C99-000400'])), [handleSubmit, run]);
  return { message, pending, onSubmit, cardFields: { register, errors: formState.errors, cardNumber, clearCvc } };
}
