import { Link } from 'react-router';
import type { Subuser } from '@sso/contracts/cards';
import { isUnactivated } from '@sso/contracts/constants';
import { buttonClass } from '../../ui/button.tsx';
import { CardList } from '../../ui/card-face.tsx';
import styles from './cards.module.css';

/** Where a card waiting for its activation key is activated (SPEC.md section 2: /subuser/activate requires subuser_id). */
export const activatePath = (subuserId: string) => `/subuser/activate?${new URLSearchParams({ subuser_id: subuserId }).toString()}`;

/** The registered cards with image, name, masked number and status; an unactivated one links to its activation. */
export function RegisteredCards({ cards }: { cards: Subuser[] }) {
  return (
    <CardList
      cards={cards}
      cardKey={(card) => card.subuser_id}
      action={(card) =>
        isUnactivated(card.status) && (
          <div className={styles.action}>
            <Link to={activatePath(card.subuser_id)} className={buttonClass('secondary')} aria-label={`${card.card_name}を有効化する`}>
              有効化する
            </Link>
          </div>
        )
      }
    />
  );
}
