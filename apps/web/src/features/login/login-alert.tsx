import { Link } from 'react-router';
import { LIMITS } from '@sso/contracts/constants';
import { LOGIN_LOCK_HELP, SERVER_MESSAGES } from '@sso/contracts/messages';
import { Alert } from '../../ui/alert.tsx';
import type { LockKind } from './login-failure.ts';
import styles from './login.module.css';

/**
 * The login page's message (SPEC.md section 8: the server's, as it is). Beside the lock's (203) a help
 * text says for how long the account stays locked and that a password reset lifts it, with the way
 * to the reset (decisions 0003 and 0011); where the network address's failures refused the login
 * (decision 0007), that it lifts with time alone. A suspended account's 203 has words of its own and no help.
 */
export function LoginAlert({ message, lock = 'account' }: { message: string | undefined; lock?: LockKind | undefined }) {
  const minutes = LIMITS.loginLockMs / 60_000;
  return (
    <>
      <Alert message={message} />
      {message === SERVER_MESSAGES.locked && (
        <p className={styles.lockHelp}>
          {lock === 'address' ? (
            // Only time lifts the address's limit (decision 0007): no reset is offered.
            LOGIN_LOCK_HELP.byAddress(minutes)
          ) : (
            <>
              {LOGIN_LOCK_HELP.text(minutes)} <Link to="/recover/mail">{LOGIN_LOCK_HELP.resetLink}</Link>
            </>
          )}
        </p>
      )}
    </>
  );
}
