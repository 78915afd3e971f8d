import { PASSKEY_SETTINGS_MESSAGES as M } from '@sso/contracts/screen-messages';
import { PASSKEY_SCREEN_TEXTS as T } from '@sso/contracts/passkey-screens';
import { MailLinkPage } from '../../ui/mail-link-page.tsx';
import page from '../../ui/page.module.css';
import { revokePasskey } from './revoke-api.ts';

/**
 * Disabling a passkey from the "passkey added" mail (/passkey/revoke?token=…, decision 0024): what
 * it does, and 「このパスキーを無効にする」. Done, every session of the member has ended, this
 * browser's too, and the way on is the login.
 */
export function PasskeyRevokePage() {
  return (
    <MailLinkPage title="パスキーの無効化" post={revokePasskey} button={T.revokeButton} done={M.revoked} onward="ログインする">
      <p className={page.lead}>{T.revokeLead}</p>
      <p className={page.lead}>{T.revokeHint}</p>
    </MailLinkPage>
  );
}
