import { useCallback, useEffect } from 'react';
import { z } from 'zod';
import { passkeyNameSchema } from '@sso/contracts/passkeys';
import { useMemberForm } from '../../lib/use-member-form.ts';
import { Alert } from '../../ui/alert.tsx';
import { Button } from '../../ui/button.tsx';
import { Field } from '../../ui/field.tsx';
import page from '../../ui/page.module.css';
import type { ActionOutcome } from '../../lib/use-pending-action.ts';

/** A passkey's name as the contract bounds it (1 to 32 characters, trimmed). */
const nameSchema = z.object({ name: passkeyNameSchema });

interface PasskeyNameFormProps {
  /** The input's id: unique on the page (one form per passkey being renamed). */
  id: string;
  label: string;
  defaultName: string;
  submitLabel: string;
  /** Sends the name; a failure is shown on the form (902: the server's message, 901: on the field). */
  save: (name: string) => Promise<ActionOutcome>;
  onCancel: () => void;
}

/**
 * The name of a passkey, new or renamed (decision 0024): a labelled field, the form's message, the
 * action and "キャンセル". The cursor goes to the field when the form appears.
 */
export function PasskeyNameForm({ id, label, defaultName, submitLabel, save, onCancel }: PasskeyNameFormProps) {
  const send = useCallback((values: { name: string }) => save(values.name), [save]);
  const { form, message, pending, onSubmit } = useMemberForm({ schema: nameSchema, defaultValues: { name: defaultName }, send });
  const { register, formState, setFocus } = form;
  useEffect(() => setFocus('name'), [setFocus]);
  return (
    <form noValidate onSubmit={onSubmit}>
      <Field id={id} label={label} type="text" autoComplete="off" error={formState.errors.name?.message} {...register('name')} />
      <Alert message={message} />
      <div className={page.actions}>
        <Button type="submit" pending={pending}>
          {submitLabel}
        </Button>
        <Button type="button" variant="secondary" disabled={pending} onClick={onCancel}>
          キャンセル
        </Button>
      </div>
    </form>
  );
}
