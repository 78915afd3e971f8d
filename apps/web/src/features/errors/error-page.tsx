import { useEffect, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { FRAME_TEXTS } from '@sso/contracts/messages';
import { clearEphemeralMessage, peekEphemeralMessage, peekEphemeralReference } from '../../lib/ephemeral-message.ts';
import { isLoggedIn } from '../../lib/records.ts';
import { buttonClass } from '../../ui/button.tsx';
import styles from './error-page.module.css';

interface ErrorPageProps {
  title: string;
  message: string;
  detail?: string;
  /** More to offer on the page, such as a link to where the member gets help. */
  children?: ReactNode;
}

/**
 * Error pages (SPEC.md section 2): a message and a button to login or Top. The message passed as an
 * ephemeral message wins while it is valid (SPEC.md section 4); it is consumed once shown. The
 * server's support reference passed with it is shown for the member to quote when they ask for
 * help (docs/operations.md, "Support reference"); a failure with no server answer has none.
 */
export function ErrorPage({ title, message, detail, children }: ErrorPageProps) {
  const [ephemeral] = useState(peekEphemeralMessage);
  const [reference] = useState(peekEphemeralReference);
  useEffect(clearEphemeralMessage, []);
  const loggedIn = isLoggedIn();
  return (
    <>
      <h1>{title}</h1>
      <div role="alert" className={styles.message}>
        <p>{ephemeral ?? message}</p>
        {detail && <p>{detail}</p>}
      </div>
      {reference && (
        <p className={styles.reference}>
          {FRAME_TEXTS.supportReference}: <span className={styles.referenceCode}>{reference}</span>
        </p>
      )}
      {children}
      <Link to={loggedIn ? '/top' : '/'} className={buttonClass()}>
        {loggedIn ? FRAME_TEXTS.toTop : FRAME_TEXTS.toLogin}
      </Link>
    </>
  );
}
