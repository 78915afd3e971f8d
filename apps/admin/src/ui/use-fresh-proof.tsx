import { useCallback, useRef, useState } from 'react';
import { OPERATOR_MESSAGES } from '@sso/contracts/operators';
import { failureMessage } from '../lib/api.ts';
import { proveWithPasskey } from '../lib/ceremonies.ts';
import { Alert } from './field.tsx';

/**
 * The fresh passkey proof a sensitive action asks for (decision 0032; RFC 9470): `prove` opens a
 * dialog whose button starts the ceremony (a user gesture, which some browsers ask of WebAuthn), and
 * resolves true once the server took the proof, false when the operator cancels.
 */
export function useFreshProof(): { prove: () => Promise<boolean>; dialog: React.ReactNode } {
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const settle = useRef<(proved: boolean) => void>(undefined);

  const prove = useCallback(
    () =>
      new Promise<boolean>((resolve) => {
        settle.current = resolve;
        setError(undefined);
        setOpen(true);
      }),
    [],
  );
  const finish = (proved: boolean) => {
    setOpen(false);
    settle.current?.(proved);
    settle.current = undefined;
  };
  const run = async () => {
    setBusy(true);
    setError(undefined);
    try {
      await proveWithPasskey();
      finish(true);
    } catch (e) {
      setError(failureMessage(e));
    } finally {
      setBusy(false);
    }
  };

  const dialog = open ? (
    <div className="overlay">
      <div className="dialog" role="dialog" aria-modal="true" aria-labelledby="fresh-proof-title">
        <h2 id="fresh-proof-title">本人確認</h2>
        <p>{OPERATOR_MESSAGES.freshProofNeeded}</p>
        {error && <Alert>{error}</Alert>}
        <div className="actions">
          <button type="button" onClick={() => void run()} disabled={busy} autoFocus>
            パスキーで確認
          </button>
          <button type="button" className="secondary" onClick={() => finish(false)} disabled={busy}>
            キャンセル
          </button>
        </div>
      </div>
    </div>
  ) : null;
  return { prove, dialog };
}
