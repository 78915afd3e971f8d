import { useCallback, useState } from 'react';
import type { WaitingCard } from '@sso/contracts/cards';
import { isUnactivated } from '@sso/contracts/constants';
import { showFailure } from '../../lib/failure-view.ts';
import { Alert } from '../../ui/alert.tsx';
import { Button } from '../../ui/button.tsx';
import { CardList } from '../../ui/card-face.tsx';
import page from '../../ui/page.module.css';
import { usePendingAction, type ActionOutcome } from '../../lib/use-pending-action.ts';
import { addWaitingCard, enableCard } from './cards-api.ts';
import styles from './cards.module.css';
import { useAfterCardChange } from './use-after-card-change.ts';

/** The notice after an add: an unactivated card still needs its activation key. */
export const addedNotice = (status: string) =>
  isUnactivated(status) ? 'カードを追加しました。ご利用にはカードの有効化が必要です。' : 'カードを追加しました。';

/**
 * The cards waiting to be added (SPEC.md section 2, "All cards: Add waiting cards"): the other cards
 * of the member's cardholders. An inactive one is enabled, then added (SPEC.md section 4).
 */
export function WaitingCards({ cards }: { cards: WaitingCard[] }) {
  const [message, setMessage] = useState<string>();
  if (cards.length === 0) return null;
  return (
    <section className={page.section} aria-labelledby="waiting-heading">
      <h2 id="waiting-heading">追加できるカード</h2>
      <p className={page.lead}>ご登録のカードと同じ会員様名義のカードです。追加するとメンバーIDでご利用いただけます。</p>
      <Alert message={message} />
      <CardList cards={cards} cardKey={(card) => card.card_token} action={(card) => <AddWaitingCard card={card} setMessage={setMessage} />} />
    </section>
  );
}

function AddWaitingCard({ card, setMessage }: { card: WaitingCard; setMessage: (m: string | undefined) => void }) {
  const afterChange = useAfterCardChange();
  const add = useCallback(async (): Promise<ActionOutcome> => {
    setMessage(undefined);
    try {
      if (card.status === 'inactive') await enableCard(card.card_token);
      const added = await addWaitingCard(card.card_token);
      return afterChange(added.esid, addedNotice(added.status));
    } catch (e) {
      showFailure(e, { setMessage });
    }
  }, [card, afterChange, setMessage]);
  const { pending, run } = usePendingAction(add);
  const label = card.status === 'inactive' ? '有効にして追加する' : '追加する';
  return (
    <div className={styles.action}>
      <Button type="button" pending={pending} onClick={() => void run()} aria-label={`${card.card_name}を${label}`}>
        {label}
      </Button>
    </div>
  );
}
