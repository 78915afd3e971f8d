import { LOGOUT_MESSAGES as M } from '@sso/contracts/messages';
import { escapeHtml } from '../../lib/html.ts';
import { END_SESSION_PATH } from './discovery.ts';

/** The SPA's first page (login and sign-up), the way on from a page of this endpoint. */
const WELCOME_PATH = '/content/';

const page = (title: string, body: string) => `<!doctype html>
<html lang="ja"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>${escapeHtml(title)}｜メンバーID</title><link rel="icon" href="data:,"></head>
<body><main>
<h1>${escapeHtml(title)}</h1>
${body}
</main></body></html>`;

const paragraph = (text: string) => `<p>${escapeHtml(text)}</p>`;

/** The member is logged out and not sent back: no post_logout_redirect_uri, or one the client did not register (never followed). */
export const loggedOutPage = (unregisteredReturn: boolean): string =>
  page(M.doneTitle, [paragraph(M.done), unregisteredReturn ? paragraph(M.notReturned) : '', `<p><a href="${WELCOME_PATH}">${escapeHtml(M.toWelcome)}</a></p>`].join('\n'));

/**
 * The question the OP must ask before a logout it cannot tie to the member's session (no valid
 * id_token_hint; section 2): a form that posts the request back with `confirm=yes`. Plain HTML, no
 * script or style (the strict Content-Security-Policy allows neither inline).
 */
export function confirmPage(request: { client_id?: string | undefined; post_logout_redirect_uri?: string | undefined; state?: string | undefined }): string {
  const hidden = Object.entries(request)
    .filter((e): e is [string, string] => typeof e[1] === 'string')
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('');
  return page(
    M.confirmTitle,
    `${paragraph(M.confirm)}
<form method="post" action="${END_SESSION_PATH}">${hidden}<input type="hidden" name="confirm" value="yes"><button type="submit">${escapeHtml(M.confirmButton)}</button></form>`,
  );
}

/** A request that contradicts itself (client_id not the hint's audience, a repeated parameter): nothing ended, no redirect. */
export const invalidLogoutPage = (): string => page(M.invalidTitle, paragraph(M.invalid));
