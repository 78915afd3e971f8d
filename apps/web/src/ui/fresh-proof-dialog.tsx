import { useId, useState, type FormEvent } from 'react';
import { CLIENT_MESSAGES, PASSKEY_MESSAGES } from '@sso/contracts/messages';
import { VALIDATION_MESSAGES } from '@sso/contracts/validation-messages';
import { ACCOUNT_MESSAGES } from '@sso/contracts/screen-messages';
import { LINKS } from '../lib/links.ts';
import { Alert } from './alert.tsx';
import { Button } from './button.tsx';
import { ExternalLink } from './external-link.tsx';
import { Field } from './field.tsx';
import { Modal } from './modal.tsx';
import page from './page.module.css';

export interface FreshProofDialogProps {
  open: boolean;
  /** The server's answer to a wrong password or a refused passkey, a lock or a network failure, shown in the dialog. */
  message: string | undefined;
  /** The proof is being checked: the buttons block repeated clicks. */
  pending: boolean;
  /** The member has a passkey (decision 0024): 「パスキーで確認する」 comes first. */
  passkey?: boolean;
  /** The member requires a passkey: no password field, the password is not accepted. */
  passkeyRequired?: boolean;
  /** Checks the password; the field is emptied when it comes back. */
  onSubmit: (password: string) => Promise<void>;
  /** Proves presence with a passkey. */
  onPasskey?: () => Promise<void>;
  /** "キャンセル", Escape and closing the dialog: the action does not go on (ignored while the proof is checked). */
  onCancel: () => void;
}

/** The dialog's first words: how this member can prove presence. */
const leadOf = (passkey: boolean, passkeyRequired: boolean) => {
  if (passkeyRequired) return PASSKEY_MESSAGES.freshProofPasskeyNeeded;
  return passkey ? PASSKEY_MESSAGES.freshProofEither : ACCOUNT_MESSAGES.freshProofNeeded;
};

/**
 * The proof prompt before a sensitive change (decision 0012): the shared modal with the current
 * password, its visible label tied to the input, and the buttons to confirm or cancel. A member with a
 * passkey is offered 「パスキーで確認する」 first, and a member who requires one gets no password field
 * (decision 0024) but the way on without the device that holds it: that device, or the support desk.
 * What it does with the proof is useFreshProof's (ui/use-fresh-proof.tsx).
 */
export function FreshProofDialog({ open, message, pending, passkey = false, passkeyRequired = false, onSubmit, onPasskey, onCancel }: FreshProofDialogProps) {
  const id = useId();
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string>();
  // Which way is being checked: its button shows that it is working, the other one only blocks.
  const [using, setUsing] = useState<'password' | 'passkey'>();
  const askPassword = !passkeyRequired;
  const offerPasskey = (passkey || passkeyRequired) && onPasskey !== undefined;
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (pending || !askPassword) return;
    if (!password) {
      setError(VALIDATION_MESSAGES.required);
      return;
    }
    setError(undefined);
    setUsing('password');
    await onSubmit(password);
    setPassword('');
  };
  const usePasskey = () => {
    if (pending || !onPasskey) return;
    setError(undefined);
    setUsing('passkey');
    void onPasskey();
  };
  const cancel = () => {
    setPassword('');
    setError(undefined);
    onCancel();
  };
  return (
    <Modal open={open} title="ご本人確認" onClose={cancel}>
      <form noValidate onSubmit={(e) => void submit(e)}>
        <p className={page.dialogText}>{leadOf(passkey, passkeyRequired)}</p>
        {offerPasskey && (
          <div className={page.dialogText}>
            <Button type="button" pending={pending && using === 'passkey'} disabled={pending} onClick={usePasskey}>
              {PASSKEY_MESSAGES.reauthButton}
            </Button>
          </div>
        )}
        {passkeyRequired && (
          // Without the device that holds the passkey, the way on (decision 0012: a proof never locks the member out).
          <p className={page.dialogText}>
            {PASSKEY_MESSAGES.freshProofPasskeyAway} <ExternalLink href={LINKS.support}>お問い合わせ</ExternalLink>
          </p>
        )}
        {askPassword && (
          <Field
            id={`${id}-password`}
            label="現在のパスワード"
            type="password"
            autoComplete="current-password"
            value={password}
            error={error}
            onChange={(e) => setPassword(e.target.value)}
          />
        )}
        {/* An empty field is marked under it and summed up above the buttons, as on every form (SPEC.md section 8). */}
        <Alert message={error ? CLIENT_MESSAGES['C99-000400'] : message} />
        <div className={page.actions}>
          {askPassword && (
            <Button type="submit" variant={offerPasskey ? 'secondary' : 'primary'} pending={pending && using !== 'passkey'} disabled={pending}>
              確認する
            </Button>
          )}
          <Button type="button" variant="secondary" disabled={pending} onClick={cancel}>
            キャンセル
          </Button>
        </div>
      </form>
    </Modal>
  );
}
