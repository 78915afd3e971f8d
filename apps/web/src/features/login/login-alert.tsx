import { Link } from 'react-router';
import { LIMITS } from '@sso/contracts/constants';
import { LOGIN_LOCK_HELP, SERVER_MESSAGES } from '@sso/contracts/messages';
import { Alert } from '../../ui/alert.tsx';
import styles from './login.module.css';

/**
 * The login page's message (SPEC.md section 8: the server's, as it is). Beside the lock's (203) a help
 * text says for how long the account stays locked and that a password reset lifts it, with the way
 * to the reset (decisions 0003 and 0011). A suspended account's 203 has words of its own and no help.
 */
export function LoginAlert({ message }: { message: string | undefined }) {
  return (
    <>
      <Alert message={message} />
      {message === SERVER_MESSAGES.locked && (
        <p className={styles.lockHelp}>
          {LOGIN_LOCK_HELP.text(LIMITS.loginLockMs / 60_000)} <Link to="/recover/mail">{LOGIN_LOCK_HELP.resetLink}</Link>
        </p>
      )}
    </>
  );
}
