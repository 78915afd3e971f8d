import { useCallback, useState } from 'react';
import { PASSKEY_SCREEN_TEXTS as T } from '@sso/contracts/passkey-screens';
import type { Passkey } from '@sso/contracts/passkeys';
import { Button } from '../../ui/button.tsx';
import type { ActionOutcome } from '../../lib/use-pending-action.ts';
import { PasskeyNameForm } from './passkey-name-form.tsx';
import { passkeyFacts } from './passkey-view.ts';
import { renamePasskey } from './passkeys-api.ts';
import styles from './passkeys.module.css';

interface PasskeyItemProps {
  passkey: Passkey;
  /** The passkey was renamed: the list is read again. */
  onRenamed: () => void;
  /** 「削除」: the page asks to confirm. */
  onRemove: (passkey: Passkey) => void;
}

/**
 * One passkey of the list: its name, when it was registered and last used, whether it is synced,
 * and its actions, each named with the passkey's name for a screen reader ("「iPhone」の名前を変更").
 * 「名前を変更」 opens a small form in place.
 */
export function PasskeyItem({ passkey, onRenamed, onRemove }: PasskeyItemProps) {
  const [renaming, setRenaming] = useState(false);
  const facts = passkeyFacts(passkey);
  const save = useCallback(
    async (name: string): Promise<ActionOutcome> => {
      await renamePasskey(passkey.id, name);
      setRenaming(false);
      onRenamed();
    },
    [passkey.id, onRenamed],
  );
  return (
    <li className={styles.item}>
      <span className={styles.name}>{passkey.name}</span>
      <dl className={styles.details}>
        <dt>{T.createdAt}</dt>
        <dd>
          <time dateTime={facts.created.iso}>{facts.created.text}</time>
        </dd>
        <dt>{T.lastUsedAt}</dt>
        <dd>{facts.lastUsed.iso ? <time dateTime={facts.lastUsed.iso}>{facts.lastUsed.text}</time> : facts.lastUsed.text}</dd>
        <dt>{T.kind}</dt>
        <dd>{facts.kind}</dd>
      </dl>
      {renaming ? (
        <div className={styles.rename}>
          <PasskeyNameForm
            id={`passkey-rename-${passkey.id}`}
            label={T.renameLabel}
            defaultName={passkey.name}
            submitLabel="変更する"
            save={save}
            onCancel={() => setRenaming(false)}
          />
        </div>
      ) : (
        <div className={styles.itemActions}>
          <Button type="button" variant="secondary" aria-label={`「${passkey.name}」の${T.rename}`} onClick={() => setRenaming(true)}>
            {T.rename}
          </Button>
          <Button type="button" variant="secondary" aria-label={`「${passkey.name}」を${T.remove}`} onClick={() => onRemove(passkey)}>
            {T.remove}
          </Button>
        </div>
      )}
    </li>
  );
}
