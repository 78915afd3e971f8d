import { useCallback } from 'react';
import { useWatch, type UseFormReturn } from 'react-hook-form';
import type { z } from 'zod';
import { cardAddFormSchema } from '@sso/contracts/cards';
import type { ActionOutcome } from './use-pending-action.ts';
import { useMemberForm } from './use-member-form.ts';

const schema = cardAddFormSchema;
type CardInput = z.input<typeof schema>;
export type CardValues = z.output<typeof schema>;
const EMPTY: CardInput = { cardnumber: '', cc_month: '', cc_year: '', cvc: '' };

/** Empties the security code and its error: for a house card, and on a refusal (902). */
const clearCvc = (form: Pick<UseFormReturn<CardInput, unknown, CardValues>, 'setValue' | 'clearErrors'>) => {
  form.setValue('cvc', '');
  form.clearErrors('cvc');
};

/**
 * The form of a card named by number, expiry and security code, on its own (the add by number,
 * decision 0006; an open member's card, decision 0016): a member form (lib/use-member-form.ts) with
 * the card sign-up's rules (SPEC.md sections 2 and 5), whose secret, the security code, is cleared
 * on a refusal (902) and for a house card. `send` gets the values and a reset to empty fields. Its
 * `cardFields` are ui/card-fields.tsx's props.
 */
export function useCardForm(send: (card: CardValues, reset: () => void) => Promise<ActionOutcome>) {
  const sendCard = useCallback((card: CardValues, form: UseFormReturn<CardInput, unknown, CardValues>) => send(card, () => form.reset(EMPTY)), [send]);
  const { form, message, pending, onSubmit } = useMemberForm({ schema, defaultValues: EMPTY, clearSecrets: clearCvc, send: sendCard });
  const { register, setValue, clearErrors, control, formState } = form;
  const cardNumber = useWatch({ control, name: 'cardnumber' }) ?? '';
  const clearHouseCvc = useCallback(() => clearCvc({ setValue, clearErrors }), [setValue, clearErrors]);
  return { message, pending, onSubmit, cardFields: { register, errors: formState.errors, cardNumber, clearCvc: clearHouseCvc } };
}
