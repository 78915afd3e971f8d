import { FRAME_TEXTS } from '@sso/contracts/messages';
import { LOGOUT_MESSAGES as M } from '@sso/contracts/screen-messages';
import { escapeHtml } from '../../lib/html.ts';
import { BUTTON_CLASS, linkButton, paragraph, serverPage, WELCOME_PATH } from '../../http/server-page.ts';
import { END_SESSION_PATH } from './discovery.ts';

/** The member is logged out and not sent back: no post_logout_redirect_uri, or one the client did not register (never followed). */
export const loggedOutPage = (unregisteredReturn: boolean): string =>
  serverPage(M.doneTitle, [paragraph(M.done), unregisteredReturn ? paragraph(M.notReturned) : '', linkButton(WELCOME_PATH, M.toWelcome)].join('\n'));

/**
 * The question the OP must ask before a logout it cannot tie to the member's session (no valid
 * id_token_hint; section 2): a form that posts the request back with `confirm=yes`. No script (the
 * strict Content-Security-Policy allows none inline); the frame's style is allowed by its hash.
 */
export function confirmPage(request: { client_id?: string | undefined; post_logout_redirect_uri?: string | undefined; state?: string | undefined }): string {
  const hidden = Object.entries(request)
    .filter((e): e is [string, string] => typeof e[1] === 'string')
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('');
  return serverPage(
    M.confirmTitle,
    `${paragraph(M.confirm)}
<div class="actions"><form method="post" action="${END_SESSION_PATH}">${hidden}<input type="hidden" name="confirm" value="yes"><button type="submit" class="${BUTTON_CLASS}">${escapeHtml(M.confirmButton)}</button></form></div>`,
  );
}

/**
 * A request that contradicts itself (client_id not the hint's audience, a repeated parameter): nothing
 * ended, no redirect. An error page: its message and the button to login (SPEC.md section 2).
 */
export const invalidLogoutPage = (): string => serverPage(M.invalidTitle, [paragraph(M.invalid), linkButton(WELCOME_PATH, FRAME_TEXTS.toLogin)].join('\n'));
