import { useCallback, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { LIMITS } from '@sso/contracts/constants';
import { PASSKEY_SETTINGS_MESSAGES as M } from '@sso/contracts/screen-messages';
import { PASSKEY_SCREEN_TEXTS as T } from '@sso/contracts/passkey-screens';
import type { Passkey } from '@sso/contracts/passkeys';
import { RESULT } from '@sso/contracts/result-codes';
import { showFailure } from '../../lib/failure-view.ts';
import { webauthnSupported } from '../../lib/webauthn.ts';
import { Alert } from '../../ui/alert.tsx';
import { BackToTop } from '../../ui/back-to-top.tsx';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { LoadStatus } from '../../ui/load-status.tsx';
import { StatusNotice } from '../../ui/status-notice.tsx';
import page from '../../ui/page.module.css';
import { useFreshProof } from '../../ui/use-fresh-proof.tsx';
import { usePendingAction, type ActionOutcome } from '../../lib/use-pending-action.ts';
import { PasskeyItem } from './passkey-item.tsx';
import { PasskeyRegister } from './passkey-register.tsx';
import { PasskeyRequireForm } from './passkey-require-form.tsx';
import { registrationOffer } from './passkey-view.ts';
import { deletePasskey, PASSKEYS_QUERY_KEY, usePasskeysQuery } from './passkeys-api.ts';
import styles from './passkeys.module.css';

/**
 * The member's passkeys (/user/passkeys, docs/decisions/0024-passkeys.md): the list with each
 * passkey's times and kind, renaming and removal, the registration of a new one, and the choice to
 * require a passkey for sensitive changes. Registration, removal and that choice need a fresh proof
 * (decision 0012): the prompt asks for it, by passkey or password.
 */
export function PasskeysPage() {
  const query = usePasskeysQuery();
  const queryClient = useQueryClient();
  const { withProof, prompt: proofPrompt } = useFreshProof();
  const [message, setMessage] = useState<string>();
  const [notice, setNotice] = useState<string>();
  const [removing, setRemoving] = useState<Passkey>();
  const [webauthn] = useState(webauthnSupported);

  const refresh = useCallback(() => void queryClient.invalidateQueries({ queryKey: PASSKEYS_QUERY_KEY }), [queryClient]);
  /** A change went through: the page says so and reads the list again. */
  const changed = useCallback(
    (text: string) => {
      setMessage(undefined);
      setNotice(text);
      refresh();
    },
    [refresh],
  );

  const remove = useCallback(async (): Promise<ActionOutcome> => {
    if (!removing) return;
    setMessage(undefined);
    setNotice(undefined);
    try {
      const outcome = await withProof(() => deletePasskey(removing.id));
      setRemoving(undefined);
      if (outcome.done) changed(T.removed);
    } catch (e) {
      setRemoving(undefined);
      // A passkey already gone (902, PASSKEY_SETTINGS_MESSAGES.notFound): the list is read again as the message says.
      if (showFailure(e, { setMessage }).result_code === RESULT.RETRYABLE) refresh();
    }
  }, [removing, withProof, changed, refresh]);
  const { pending: removePending, run: runRemove } = usePendingAction(remove);

  const passkeys = query.data?.passkeys ?? [];
  const offer = registrationOffer(webauthn, passkeys.length, LIMITS.passkeysPerMember);
  return (
    <>
      <h1>{M.title}</h1>
      <p className={page.lead}>{M.lead}</p>
      <StatusNotice text={notice} />
      <Alert message={message} />
      <LoadStatus loading={query.isPending} error={query.error} />
      {query.isSuccess && (
        <>
          <section className={page.section} aria-labelledby="passkeys-heading">
            <h2 id="passkeys-heading">{T.listHeading}</h2>
            {passkeys.length === 0 ? (
              <p className={page.lead}>{M.none}</p>
            ) : (
              <ul className={styles.list}>
                {passkeys.map((p) => (
                  <PasskeyItem key={p.id} passkey={p} onRenamed={() => changed(T.renamed)} onRemove={setRemoving} />
                ))}
              </ul>
            )}
            <div className={styles.register}>
              {offer.offer ? <PasskeyRegister withProof={withProof} onRegistered={() => changed(T.registered)} /> : <p className={page.lead}>{offer.reason}</p>}
            </div>
          </section>
          <section className={page.section} aria-labelledby="require-heading">
            <h2 id="require-heading">{T.requireHeading}</h2>
            {/* Keyed by the saved setting, so that the checkbox starts from it again once the list is read again. */}
            <PasskeyRequireForm key={String(query.data.require_passkey)} required={query.data.require_passkey} withProof={withProof} onSaved={() => changed(T.requireSaved)} />
          </section>
        </>
      )}
      <div className={page.actions}>
        <BackToTop />
      </div>
      <ConfirmDialog
        open={removing !== undefined}
        title={T.removeTitle}
        confirmLabel={T.removeConfirm}
        pending={removePending}
        onConfirm={() => void runRemove()}
        onCancel={() => setRemoving(undefined)}
      >
        <p className={page.dialogText}>
          「{removing?.name}」
          <br />
          {T.removeText}
        </p>
      </ConfirmDialog>
      {proofPrompt}
    </>
  );
}
