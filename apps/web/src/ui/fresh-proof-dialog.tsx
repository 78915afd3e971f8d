import { useId, useState, type FormEvent } from 'react';
import { ACCOUNT_MESSAGES, CLIENT_MESSAGES, VALIDATION_MESSAGES } from '@sso/contracts/messages';
import { Alert } from './alert.tsx';
import { Button } from './button.tsx';
import { Field } from './field.tsx';
import { Modal } from './modal.tsx';
import page from './page.module.css';

export interface FreshProofDialogProps {
  open: boolean;
  /** The server's answer to a wrong password, a lock or a network failure, shown in the dialog. */
  message: string | undefined;
  /** The password is being checked: the button blocks repeated clicks. */
  pending: boolean;
  /** Checks the password; the field is emptied when it comes back. */
  onSubmit: (password: string) => Promise<void>;
  /** "キャンセル", Escape and closing the dialog: the action does not go on (ignored while the password is checked). */
  onCancel: () => void;
}

/**
 * The password prompt before a sensitive change (decision 0012): the shared modal with the current
 * password, its visible label tied to the input, and the buttons to confirm or cancel. What it does
 * with the password is useFreshProof's (ui/use-fresh-proof.tsx).
 */
export function FreshProofDialog({ open, message, pending, onSubmit, onCancel }: FreshProofDialogProps) {
  const id = useId();
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string>();
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (pending) return;
    if (!password) {
      setError(VALIDATION_MESSAGES.required);
      return;
    }
    setError(undefined);
    await onSubmit(password);
    setPassword('');
  };
  const cancel = () => {
    setPassword('');
    setError(undefined);
    onCancel();
  };
  return (
    <Modal open={open} title="ご本人確認" onClose={cancel}>
      <form noValidate onSubmit={(e) => void submit(e)}>
        <p className={page.dialogText}>{ACCOUNT_MESSAGES.freshProofNeeded}</p>
        <Field
          id={`${id}-password`}
          label="現在のパスワード"
          type="password"
          autoComplete="current-password"
          value={password}
          error={error}
          onChange={(e) => setPassword(e.target.value)}
        />
        {/* An empty field is marked under it and summed up above the buttons, as on every form (SPEC.md section 8). */}
        <Alert message={error ? CLIENT_MESSAGES['C99-000400'] : message} />
        <div className={page.actions}>
          <Button type="submit" pending={pending}>
            確認する
          </Button>
          <Button type="button" variant="secondary" disabled={pending} onClick={cancel}>
            キャンセル
          </Button>
        </div>
      </form>
    </Modal>
  );
}
