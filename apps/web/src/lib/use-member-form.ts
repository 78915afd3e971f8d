import { useCallback, useMemo, useState } from 'react';
import { useForm, type DefaultValues, type FieldPath, type FieldValues, type UseFormReturn } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import { CLIENT_MESSAGES } from '@sso/contracts/messages';
import { RESULT } from '@sso/contracts/result-codes';
import { usePendingAction, type ActionOutcome } from './use-pending-action.ts';
import { showFailure, type FailureView } from './failure-view.ts';
import { normalisedResolver } from './normalised-resolver.ts';

/** What an action does with a failed answer: showFailure (lib/failure-view.ts), or that and more. */
export type FailureHandler = (e: unknown, view: FailureView) => void;

/** Where a server validation error (901) is shown: the keys that have a place on the form, or the place of a key. */
type ErrorPlaces<I extends FieldValues> = readonly string[] | ((key: string) => FieldPath<I> | undefined);

export interface MemberFormOptions<I extends FieldValues, O> {
  /** The contract's rules: a module constant, or one made once (useState), so that the form keeps it. */
  schema: z.ZodType<O, I> & { shape: object };
  defaultValues: DefaultValues<I>;
  /**
   * Where 901's validation_errors go, matched by name (SPEC.md sections 5 and 8); the schema's fields
   * unless given. A key with no place on the form is not shown on a field. Like the functions below,
   * stable (a constant, useState or useCallback), so that the failure view is.
   */
  fields?: ErrorPlaces<I>;
  /** Clears the one-time password or PIN on a refusal (902, SPEC.md section 8). */
  clearSecrets?: (form: UseFormReturn<I, unknown, O>) => void;
  /** An access-denied answer says the server's flow is over: drop what the screen holds of it. */
  onFlowEnded?: () => void;
  /** Sends the valid values; 'leaving' keeps the form blocked while the page navigates away. */
  send: (values: O, form: UseFormReturn<I, unknown, O>) => Promise<ActionOutcome>;
  /** What a failure shows; showFailure unless the screen does more with it. */
  onFailure?: FailureHandler;
}

/**
 * An action of a form screen (SPEC.md sections 4 and 8): the message cleared, `send` run at most once
 * at a time (lib/use-pending-action.ts), and a failure shown on `view`. `useMemberForm` submits with
 * one; a screen with a second button on the same values (a confirm mode's "登録する") adds another.
 */
export function useFormAction<A extends unknown[]>(view: FailureView, send: (...args: A) => Promise<ActionOutcome>, onFailure: FailureHandler = showFailure) {
  const act = useCallback(
    async (...args: A): Promise<ActionOutcome> => {
      view.setMessage(undefined);
      try {
        return await send(...args);
      } catch (e) {
        onFailure(e, view);
      }
    },
    [view, send, onFailure],
  );
  return usePendingAction(act);
}

/**
 * The confirm mode's commit ("登録する", "変更する") on the values the input mode checked: a form
 * action whose 901 puts the server's field errors on the fields and goes back to the input
 * (SPEC.md section 8), where they are shown.
 */
export function useCommitAction<V>(view: FailureView, send: (values: V) => Promise<ActionOutcome>, backToInput: () => void) {
  const onFailure = useCallback(
    (e: unknown, shown: FailureView) => {
      if (showFailure(e, shown).result_code === RESULT.VALIDATION) backToInput();
    },
    [backToInput],
  );
  return useFormAction(view, send, onFailure);
}

/**
 * The form of a member screen (SPEC.md sections 4, 5 and 8): the contract's schema checks the values
 * as lib/input-normalise.ts brings them to section 5's rules (docs/decisions/0018; passwords are left
 * as typed), on blur and again on change; the page's message (C99-000400 when the fields are
 * invalid); and a submit that clears the message, blocks repeated clicks while `send` runs, and
 * shows a failure with showFailure: 901 on the fields, 902 clearing the secrets, the rest as it says.
 */
export function useMemberForm<I extends FieldValues, O = I>({ schema, defaultValues, fields, clearSecrets, onFlowEnded, send, onFailure }: MemberFormOptions<I, O>) {
  const [message, setMessage] = useState<string>();
  const form = useForm<I, unknown, O>({ resolver: normalisedResolver(zodResolver(schema)), mode: 'onBlur', reValidateMode: 'onChange', defaultValues });
  const places = useMemo(() => fields ?? Object.keys(schema.shape), [fields, schema]);
  const view = useMemo<FailureView>(
    () => ({
      setMessage,
      setFieldError: (key, text) => {
        const field = typeof places === 'function' ? places(key) : places.find((f) => f === key);
        if (!field) return false;
        form.setError(field as FieldPath<I>, { message: text });
        return true;
      },
      ...(clearSecrets && { clearSecrets: () => clearSecrets(form) }),
      ...(onFlowEnded && { onFlowEnded }),
    }),
    [form, places, clearSecrets, onFlowEnded],
  );
  const sendForm = useCallback((values: O) => send(values, form), [send, form]);
  const { pending, run } = useFormAction(view, sendForm, onFailure);
  const { handleSubmit } = form;
  const onSubmit = useMemo(() => handleSubmit(run, () => setMessage(CLIENT_MESSAGES['C99-000400'])), [handleSubmit, run]);
  return { form, message, setMessage, view, pending, onSubmit };
}
