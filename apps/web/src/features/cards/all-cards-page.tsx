import { Link, useLocation } from 'react-router';
import { CARD_MESSAGES } from '@sso/contracts/screen-messages';
import { useCardsQuery } from '../../lib/cards-query.ts';
import { buttonClass } from '../../ui/button.tsx';
import { LoadStatus } from '../../ui/load-status.tsx';
import { StatusNotice } from '../../ui/status-notice.tsx';
import page from '../../ui/page.module.css';
import { AddCardForm } from './add-card-form.tsx';
import { useIsOpenMemberQuery } from '../../lib/is-open-member.ts';
import { useWaitingCardsQuery } from './cards-api.ts';
import styles from './cards.module.css';
import { RegisteredCards } from './registered-cards.tsx';
import type { CardsNotice } from './use-after-card-change.ts';
import { WaitingCards } from './waiting-cards.tsx';

/**
 * All cards (SPEC.md section 2, /subusers/all): the registered cards, the cards waiting to be added,
 * an add by number, and the way to removal. After a change it says what happened (router state).
 */
export function AllCardsPage() {
  const cards = useCardsQuery();
  const waiting = useWaitingCardsQuery();
  const isOpen = useIsOpenMemberQuery();
  const notice = (useLocation().state as CardsNotice | null)?.notice;
  const hasActive = cards.data?.some((c) => c.status === 'active') ?? false;
  return (
    <>
      <h1>カード一覧</h1>
      <StatusNotice text={notice} />
      <LoadStatus loading={cards.isPending} error={cards.error ?? waiting.error} />
      {cards.isSuccess && (
        <>
          <section className={page.section} aria-labelledby="registered-heading">
            <h2 id="registered-heading">登録カード</h2>
            <RegisteredCards cards={cards.data} />
            {hasActive && (
              <p className={styles.toRemoval}>
                <Link to="/subuser/remove" className={buttonClass('secondary')}>
                  カードを削除する
                </Link>
              </p>
            )}
          </section>
          {waiting.isSuccess && <WaitingCards cards={waiting.data} />}
          {isOpen.data === true && (
            // Open members add a card through the holder check (docs/decisions/0016).
            <section className={page.section} aria-labelledby="register-heading">
              <h2 id="register-heading">カードを登録する</h2>
              <p className={page.lead}>{CARD_MESSAGES.openMembersUpgrade}</p>
              <Link to="/open/card" className={buttonClass()}>
                カードを登録する
              </Link>
            </section>
          )}
          {isOpen.data === false && <AddCardForm />}
        </>
      )}
    </>
  );
}
