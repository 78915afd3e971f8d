import { cardBody } from '../../../apps/server/src/test-support/signup-kit.ts';
import { spaClient } from './client.ts';

/**
 * Valid sign-up requests (SPEC.md section 3), the same the in-process tests send: the open sign-up's
 * `openBody(email, over)` and the demo cards as they are, and the card sign-up for a running system,
 * whose SPA redirect URI carries the system's own origin.
 */
export { openBody, OPEN_PASSWORD } from '../../../apps/server/src/test-support/open-signup-kit.ts';
export { CARDS, PASSWORD as CARD_SIGNUP_PASSWORD } from '../../../apps/server/src/test-support/signup-kit.ts';

export const cardSignupBody = (origin: string, card: { cardnumber: string; cvc: string }, username: string, over: Record<string, unknown> = {}) =>
  cardBody(card, username, { redirect_uri: spaClient(origin).redirectUri, ...over });
