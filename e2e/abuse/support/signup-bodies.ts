import { cardBody } from '@sso/server/test-support';
import { spaClient } from './client.ts';

/**
 * Valid sign-up requests (SPEC.md section 3), the same the in-process tests send: the open sign-up's
 * `openBody(email, over)` and the demo cards as they are, and the card sign-up for a running system,
 * whose SPA redirect URI carries the system's own origin.
 */
export { CARD_SIGNUP_PASSWORD, CARDS, openBody, OPEN_PASSWORD } from '@sso/server/test-support';

export const cardSignupBody = (origin: string, card: { cardnumber: string; cvc: string }, username: string, over: Record<string, unknown> = {}) =>
  cardBody(card, username, { redirect_uri: spaClient(origin).redirectUri, ...over });
