import { useCallback, useMemo, useState } from 'react';
import { useForm, type DefaultValues, type FieldPath, type FieldValues } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import { CLIENT_MESSAGES } from '@sso/contracts/messages';
import { normalisedResolver } from './normalised-resolver.ts';
import { usePendingAction, type ActionOutcome } from '../ui/use-pending-action.ts';
import { showFailure } from './failure-view.ts';
import { useFailureView } from './use-failure-view.ts';

/**
 * The form of a screen that sends its fields and then leaves (SPEC.md sections 4, 5 and 8): checked
 * with the contract's schema on blur and again on change, its own message (C99-000400 when the
 * fields are invalid), 901 errors put on its fields by name, other failures shown by showFailure,
 * and repeated clicks blocked while `send` runs (and after it, when it answers 'leaving' as it
 * navigates away). `fields` are the form's field names (a module constant, so that the view is stable).
 */
export function useFormScreen<T extends FieldValues>(
  schema: z.ZodType<T, T>,
  defaultValues: DefaultValues<T>,
  fields: readonly FieldPath<T>[],
  send: (values: T) => Promise<ActionOutcome>,
) {
  const [message, setMessage] = useState<string>();
  const form = useForm<T>({ resolver: normalisedResolver(zodResolver(schema)), mode: 'onBlur', reValidateMode: 'onChange', defaultValues });
  const view = useFailureView({ setMessage, setError: form.setError, fields });
  const submit = useCallback(
    async (values: T): Promise<ActionOutcome> => {
      setMessage(undefined);
      try {
        return await send(values);
      } catch (e) {
        showFailure(e, view);
      }
    },
    [send, view],
  );
  const { pending, run } = usePendingAction(submit);
  const onSubmit = useMemo(() => form.handleSubmit(run, () => setMessage(CLIENT_MESSAGES['C99-000400'])), [form, run]);
  return { form, message, pending, onSubmit };
}
