import type { RegistrationResponseJSON } from '@simplewebauthn/browser';
import { useCallback, useState } from 'react';
import { PASSKEY_SETTINGS_MESSAGES as M } from '@sso/contracts/screen-messages';
import { PASSKEY_SCREEN_TEXTS as T } from '@sso/contracts/passkey-screens';
import { showFailure } from '../../lib/failure-view.ts';
import type { ProofOutcome } from '../../lib/fresh-proof.ts';
import { ceremonyFailureMessage, register } from '../../lib/webauthn.ts';
import { Alert } from '../../ui/alert.tsx';
import { Button } from '../../ui/button.tsx';
import page from '../../ui/page.module.css';
import { usePendingAction, type ActionOutcome } from '../../lib/use-pending-action.ts';
import { PasskeyNameForm } from './passkey-name-form.tsx';
import { defaultPasskeyName } from './passkey-view.ts';
import { registerPasskey, registrationOptions } from './passkeys-api.ts';

interface PasskeyRegisterProps {
  withProof: <V>(action: () => Promise<V>) => Promise<ProofOutcome<V>>;
  /** The passkey was registered: the page says so and reads the list again. */
  onRegistered: () => void;
}

/**
 * 「パスキーを登録する」 (decision 0024): the options of a new passkey, which need a fresh proof
 * (the prompt asks for it), the browser's ceremony, then the passkey's name, offered as the system
 * and browser it was made on, and the registration. A ceremony the browser ends says so; the
 * server's refusals (902: already registered, too many, a stale challenge) show its message.
 */
export function PasskeyRegister({ withProof, onRegistered }: PasskeyRegisterProps) {
  const [message, setMessage] = useState<string>();
  const [made, setMade] = useState<RegistrationResponseJSON>();

  const start = useCallback(async (): Promise<ActionOutcome> => {
    setMessage(undefined);
    try {
      const options = await withProof(registrationOptions);
      if (!options.done) return;
      setMade(await register(options.value));
    } catch (e) {
      const ceremony = ceremonyFailureMessage(e);
      if (ceremony) setMessage(ceremony);
      else showFailure(e, { setMessage });
    }
  }, [withProof]);
  const { pending, run } = usePendingAction(start);

  const save = useCallback(
    async (name: string): Promise<ActionOutcome> => {
      if (!made) return;
      // The proof is usually still fresh from the options; if it lapsed while naming, the prompt asks again.
      const outcome = await withProof(() => registerPasskey(name, made));
      if (!outcome.done) return;
      setMade(undefined);
      onRegistered();
    },
    [made, withProof, onRegistered],
  );

  if (made) {
    return (
      <>
        <p className={page.lead}>{T.nameLead}</p>
        <PasskeyNameForm
          id="passkey-name"
          label={T.nameLabel}
          defaultName={defaultPasskeyName(globalThis.navigator?.userAgent ?? '')}
          submitLabel="登録する"
          save={save}
          onCancel={() => setMade(undefined)}
        />
      </>
    );
  }
  return (
    <>
      <Alert message={message} />
      <Button type="button" pending={pending} onClick={() => void run()}>
        {M.add}
      </Button>
    </>
  );
}
