import { LIMITS } from '@sso/contracts/constants';
import { ACCOUNT_MESSAGES } from '@sso/contracts/screen-messages';
import page from './page.module.css';

/**
 * What a screen whose action needs a fresh proof says before the proof is asked (decision 0012): why
 * it is asked, and what will be asked. The e-mail change and the withdrawal show it above their button.
 */
export function FreshProofNotice() {
  return (
    <>
      <p className={page.lead}>{ACCOUNT_MESSAGES.freshProofWhy}</p>
      <p className={page.lead}>{ACCOUNT_MESSAGES.freshProofWhat(LIMITS.freshProofMaxAgeMs / 60_000)}</p>
    </>
  );
}
