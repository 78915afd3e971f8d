import type { ReactNode } from 'react';
import { SUBUSER_STATUS_LABELS, type SubuserStatus } from '@sso/contracts/constants';
import styles from './card-face.module.css';

/** The empty card list's words (SPEC.md section 2, "All cards"). */
export const NO_CARDS = '登録されているカードはありません。';

export interface CardFaceData {
  card_name: string;
  card_image_url: string;
  card_number_mask: string;
  status: SubuserStatus;
}

/**
 * One card as the card screens and the user page show it: its face, name, masked number and status
 * (SPEC.md section 2, "list registered cards"). The image is decorative: the name beside it says it.
 */
export function CardFace({ card, children }: { card: CardFaceData; children?: ReactNode }) {
  return (
    <div className={styles.card}>
      <img className={styles.image} src={card.card_image_url} alt="" width={112} height={71} />
      <div className={styles.text}>
        <span className={styles.name}>{card.card_name}</span>
        <span className={styles.mask}>{card.card_number_mask}</span>
        <span className={card.status === 'active' ? styles.status : `${styles.status} ${styles.attention}`}>
          {SUBUSER_STATUS_LABELS[card.status] ?? card.status}
        </span>
        {children}
      </div>
    </div>
  );
}

/** A list of cards, each in its frame with an optional action under its text; an empty list says `empty`. */
export function CardList<C extends CardFaceData>({
  cards,
  cardKey,
  empty = NO_CARDS,
  action,
}: {
  cards: readonly C[];
  /** What names a card in the list (its subuser_id, a waiting card's card_token). */
  cardKey: (card: C) => string;
  empty?: string;
  action?: (card: C) => ReactNode;
}) {
  if (cards.length === 0) return <p className={styles.empty}>{empty}</p>;
  return (
    <ul className={styles.list}>
      {cards.map((card) => (
        <li key={cardKey(card)} className={styles.item}>
          <CardFace card={card}>{action?.(card)}</CardFace>
        </li>
      ))}
    </ul>
  );
}
