import { useCallback, useState } from 'react';
import { Link } from 'react-router';
import type { Subuser } from '@sso/contracts/cards';
import { VALIDATION_MESSAGES } from '@sso/contracts/validation-messages';
import { useCardsQuery } from '../../lib/cards-query.ts';
import { showFailure } from '../../lib/failure-view.ts';
import { Alert } from '../../ui/alert.tsx';
import { Button, buttonClass } from '../../ui/button.tsx';
import { CardFace } from '../../ui/card-face.tsx';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { LoadStatus } from '../../ui/load-status.tsx';
import faces from '../../ui/card-face.module.css';
import page from '../../ui/page.module.css';
import { usePendingAction, type ActionOutcome } from '../../lib/use-pending-action.ts';
import { removeCards } from './cards-api.ts';
import styles from './cards.module.css';
import { useAfterCardChange } from './use-after-card-change.ts';

/**
 * Card removal (SPEC.md sections 2 and 4, /subuser/remove): a checkbox per active card (only active
 * cards can be removed), "削除する" opens a confirm dialog, then the removal (all or none) and the
 * all-cards list, or the portal app the member came from.
 */
export function CardRemovePage() {
  const cards = useCardsQuery();
  const active = cards.data?.filter((c) => c.status === 'active') ?? [];
  const others = (cards.data?.length ?? 0) - active.length;
  return (
    <>
      <h1>カードの削除</h1>
      <LoadStatus loading={cards.isPending} error={cards.error} />
      {cards.isSuccess && (active.length === 0 ? <p className={faces.empty}>削除できるカードはありません。</p> : <RemoveForm cards={active} />)}
      {others > 0 && <p className={page.lead}>有効化が必要なカード・利用停止中のカードは削除できません。</p>}
      <Link to="/subusers/all" className={buttonClass('secondary')}>
        カード一覧へ
      </Link>
    </>
  );
}

function RemoveForm({ cards }: { cards: Subuser[] }) {
  const afterChange = useAfterCardChange();
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [confirming, setConfirming] = useState(false);
  const [message, setMessage] = useState<string>();
  const chosen = cards.filter((c) => selected.has(c.subuser_id));

  const toggle = (id: string, on: boolean) =>
    setSelected((s) => {
      const next = new Set(s);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });

  const ask = () => {
    setMessage(chosen.length === 0 ? VALIDATION_MESSAGES.cardSelect : undefined);
    if (chosen.length > 0) setConfirming(true);
  };

  const remove = useCallback(async (): Promise<ActionOutcome> => {
    setMessage(undefined);
    const ids = chosen.map((c) => c.subuser_id);
    try {
      await removeCards(ids);
    } catch (e) {
      setConfirming(false);
      showFailure(e, { setMessage });
      return;
    }
    setConfirming(false);
    return afterChange(chosen[0]!.esid, 'カードを削除しました。', ids);
  }, [chosen, afterChange]);
  const { pending, run } = usePendingAction(remove);

  return (
    <>
      <p className={page.lead}>削除するカードを選んで「削除する」を押してください。ご利用中のカードのみ削除できます。</p>
      <fieldset className={styles.fieldset}>
        <legend className={styles.legend}>削除するカード</legend>
        <ul className={faces.list}>
          {cards.map((card) => (
            <li key={card.subuser_id} className={`${faces.item} ${styles.selectable}`}>
              <input
                id={`remove-${card.subuser_id}`}
                type="checkbox"
                checked={selected.has(card.subuser_id)}
                onChange={(e) => toggle(card.subuser_id, e.target.checked)}
              />
              <label htmlFor={`remove-${card.subuser_id}`}>
                <CardFace card={card} />
              </label>
            </li>
          ))}
        </ul>
      </fieldset>
      <Alert message={message} />
      <div className={`${page.actions} ${styles.gap}`}>
        <Button type="button" pending={pending} onClick={ask}>
          削除する
        </Button>
      </div>
      <ConfirmDialog
        open={confirming}
        title="カードを削除しますか？"
        confirmLabel="削除する"
        pending={pending}
        onConfirm={() => void run()}
        onCancel={() => setConfirming(false)}
      >
        <p className={page.dialogText}>次のカードを削除します。削除したカードは、もう一度追加するまでメンバーIDでご利用いただけません。</p>
        <ul className={styles.dialogList}>
          {chosen.map((c) => (
            <li key={c.subuser_id}>
              {c.card_name}（{c.card_number_mask}）
            </li>
          ))}
        </ul>
      </ConfirmDialog>
    </>
  );
}
