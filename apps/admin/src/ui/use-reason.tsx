import { useCallback, useRef, useState } from 'react';

/** Why an operator acts: the audit log's reason (required) and the support system's ticket number (optional). */
export interface Reason {
  reason: string;
  ticket?: string;
}

/**
 * Every action on a member, a client or an operator asks why (decision 0032; the audit log keeps it):
 * `ask(title)` opens a dialog with the reason and the ticket number, and resolves them, or undefined
 * when the operator cancels.
 */
export function useReason(): { ask: (title: string) => Promise<Reason | undefined>; dialog: React.ReactNode } {
  const [title, setTitle] = useState<string>();
  const [reason, setReason] = useState('');
  const [ticket, setTicket] = useState('');
  const [error, setError] = useState<string>();
  const settle = useRef<(r: Reason | undefined) => void>(undefined);

  const ask = useCallback(
    (next: string) =>
      new Promise<Reason | undefined>((resolve) => {
        settle.current = resolve;
        setReason('');
        setTicket('');
        setError(undefined);
        setTitle(next);
      }),
    [],
  );
  const finish = (r: Reason | undefined) => {
    setTitle(undefined);
    settle.current?.(r);
    settle.current = undefined;
  };
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    if (reason.trim() === '') {
      setError('理由を入力してください');
      return;
    }
    finish({ reason: reason.trim(), ...(ticket.trim() ? { ticket: ticket.trim() } : {}) });
  };

  const dialog =
    title === undefined ? null : (
      <div className="overlay">
        <form className="dialog" role="dialog" aria-modal="true" aria-labelledby="reason-title" onSubmit={submit} noValidate>
          <h2 id="reason-title">{title}</h2>
          <div className="field">
            <label htmlFor="action-reason">理由</label>
            <textarea
              id="action-reason"
              name="action-reason"
              rows={3}
              value={reason}
              onChange={(e) => setReason(e.target.value)}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? 'action-reason-error' : undefined}
              autoFocus
            />
            {error && (
              <span id="action-reason-error" className="field-error">
                {error}
              </span>
            )}
          </div>
          <div className="field">
            <label htmlFor="action-ticket">チケット番号（任意）</label>
            <input id="action-ticket" name="action-ticket" value={ticket} onChange={(e) => setTicket(e.target.value)} autoComplete="off" />
          </div>
          <div className="actions">
            <button type="submit">実行する</button>
            <button type="button" className="secondary" onClick={() => finish(undefined)}>
              キャンセル
            </button>
          </div>
        </form>
      </div>
    );
  return { ask, dialog };
}
