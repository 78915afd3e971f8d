import { useState } from 'react';
import { APP_CONFIRM_TEXTS } from '@sso/contracts/app-confirm-screen';
import type { SessionConfirm } from '../../lib/authorize-check.ts';
import { watchCustomScheme } from '../../lib/hand-off.ts';
import { Button } from '../../ui/button.tsx';
import page from '../../ui/page.module.css';

/**
 * The member's own go-ahead before the browser's SSO session answers an app whose redirect URI cannot
 * be tied to it (docs/decisions/0027-apps-confirmed-by-the-member.md; RFC 8252 section 8.6): any app
 * on the phone can claim a portal app's custom URL scheme and open this page, so the screen names the
 * app and the account, and nothing is issued until the member presses. Declining sends the app its
 * `access_denied` (RFC 6749 section 4.1.2.1), with the custom scheme's fallback (SPEC.md section 4).
 */
export function AppConfirmStep({ confirm, redirectUri, onConfirm }: { confirm: SessionConfirm; redirectUri: string | null; onConfirm: () => void }) {
  const [pending, setPending] = useState(false);
  const name = confirm.client_name;
  return (
    <>
      <h1>{APP_CONFIRM_TEXTS.heading}</h1>
      <p className={page.lead}>{APP_CONFIRM_TEXTS.asks(name)}</p>
      <p className={page.lead}>
        {APP_CONFIRM_TEXTS.account}
        <span className={page.emphasis}>{confirm.account}</span>
      </p>
      <p className={page.lead}>{APP_CONFIRM_TEXTS.notYours(name)}</p>
      <div className={page.actions}>
        <Button
          type="button"
          pending={pending}
          onClick={() => {
            setPending(true);
            onConfirm();
          }}
        >
          {APP_CONFIRM_TEXTS.confirm(name)}
        </Button>
        <Button
          type="button"
          variant="secondary"
          disabled={pending}
          onClick={() => {
            setPending(true);
            globalThis.location.assign(confirm.deny_to);
            watchCustomScheme(redirectUri);
          }}
        >
          {APP_CONFIRM_TEXTS.decline}
        </Button>
      </div>
    </>
  );
}
