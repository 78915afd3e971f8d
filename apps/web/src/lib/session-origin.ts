import { clientOrigin, type ClientOrigin } from '@sso/contracts/client-origin';

/**
 * What the app a member came from changes in the SPA (SPEC.md section 4, "Session origin"; section 6:
 * "Partner-portal context changes the return behaviour"). The session's comesFrom is classed once,
 * by @sso/contracts/client-origin, and every behaviour below is read from its class.
 */
export interface ReturnBehaviour {
  /**
   * After a card add, activation or removal the member returns to the app (a GET of
   * /api/redirect/resume_app with client_id, state and esid, SPEC.md section 4); otherwise the
   * member goes to the all-cards list.
   */
  returnsToApp: boolean;
  /** The login offers the chat-bot's help to members from the messaging app (SPEC.md section 2, "Login"). */
  offersChatbot: boolean;
}

const STAYS: ReturnBehaviour = { returnsToApp: false, offersChatbot: false };
/** Both portals, first and second, are apps with a custom URL scheme and a resume URI (SPEC.md sections 1 and 4). */
const PORTAL: ReturnBehaviour = { returnsToApp: true, offersChatbot: false };

const BEHAVIOURS: Readonly<Record<ClientOrigin, ReturnBehaviour>> = {
  web: STAYS,
  portal: PORTAL,
  secondPortal: PORTAL,
  lineAnswer: { returnsToApp: false, offersChatbot: true },
  netAnswer: STAYS,
  unknown: STAYS,
};

/** The return behaviour of a session that came from `comesFrom` (a client id, or none). */
export const returnBehaviour = (comesFrom: string | null | undefined): ReturnBehaviour => BEHAVIOURS[clientOrigin(comesFrom)];
