import { useCallback } from 'react';
import type { z } from 'zod';
import { PASSKEY_SETTINGS_MESSAGES as M } from '@sso/contracts/screen-messages';
import { PASSKEY_SCREEN_TEXTS as T } from '@sso/contracts/passkey-screens';
import { passkeyRequireRequestSchema } from '@sso/contracts/passkeys';
import type { ProofOutcome } from '../../lib/fresh-proof.ts';
import { useMemberForm } from '../../lib/use-member-form.ts';
import { Alert } from '../../ui/alert.tsx';
import { Button } from '../../ui/button.tsx';
import { Checkbox } from '../../ui/checkbox.tsx';
import page from '../../ui/page.module.css';
import type { ActionOutcome } from '../../lib/use-pending-action.ts';
import { requirePasskey } from './passkeys-api.ts';

type RequireFields = z.infer<typeof passkeyRequireRequestSchema>;

interface PasskeyRequireFormProps {
  /** The setting as the server has it. */
  required: boolean;
  withProof: <V>(action: () => Promise<V>) => Promise<ProofOutcome<V>>;
  /** The setting was saved: the page says so and reads it again. */
  onSaved: () => void;
}

/**
 * Require a passkey for sensitive changes (decision 0024): the checkbox and 「保存する」, after a
 * fresh proof. Turning it on without a passkey is answered 902 (PASSKEY_SETTINGS_MESSAGES.requireNeedsPasskey),
 * shown on the form.
 */
export function PasskeyRequireForm({ required, withProof, onSaved }: PasskeyRequireFormProps) {
  const send = useCallback(
    async (values: RequireFields): Promise<ActionOutcome> => {
      const outcome = await withProof(() => requirePasskey(values.required));
      if (outcome.done) onSaved();
    },
    [withProof, onSaved],
  );
  const { form, message, pending, onSubmit } = useMemberForm({ schema: passkeyRequireRequestSchema, defaultValues: { required }, send });
  return (
    <form noValidate onSubmit={onSubmit}>
      <Checkbox id="require_passkey" label={M.requireLabel} hint={T.requireHint} {...form.register('required')} />
      <Alert message={message} />
      <div className={page.actions}>
        <Button type="submit" variant="secondary" pending={pending}>
          保存する
        </Button>
      </div>
    </form>
  );
}
