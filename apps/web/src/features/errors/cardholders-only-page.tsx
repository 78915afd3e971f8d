import { SERVICE_MESSAGES } from '@sso/contracts/messages';
import { ErrorPage } from './error-page.tsx';
import styles from './error-page.module.css';

/**
 * A member without a card at a door of a cardholders-only service (SPEC.md section 6; result 300):
 * the login step, an authorize endpoint (which sends the member here, never to the partner) or a
 * hand-off. Says so, and the way on: a card is added from the ID's Top page, which the button
 * reaches (after a login to the ID itself when the member is logged out).
 */
export const CardholdersOnlyPage = () => (
  <ErrorPage title="カードをお持ちの方のみご利用いただけます" message={SERVICE_MESSAGES.cardholdersOnly}>
    <p className={styles.more}>{SERVICE_MESSAGES.addCardFromTop}</p>
  </ErrorPage>
);
