import { CLIENT_IDS } from './constants.ts';

/**
 * Where a session came from (SPEC.md section 4, "Session origin"): the client id it came with,
 * classed by the table of SPEC.md section 6. The one classifier of client ids: every behaviour that
 * depends on the app a member came from or goes to asks it, never the ids themselves.
 */
export type ClientOrigin = 'web' | 'portal' | 'secondPortal' | 'lineAnswer' | 'netAnswer' | 'unknown';

const ORIGINS: ReadonlyMap<string, ClientOrigin> = new Map<string, ClientOrigin>([
  [CLIENT_IDS.web, 'web'],
  ...CLIENT_IDS.portal.map((id) => [id, 'portal'] as const),
  ...CLIENT_IDS.secondPortal.map((id) => [id, 'secondPortal'] as const),
  [CLIENT_IDS.lineAnswer, 'lineAnswer'],
  [CLIENT_IDS.netAnswer, 'netAnswer'],
]);

/** The origin of a client id; anything not in the table (a partner added later, nothing) is unknown. */
export const clientOrigin = (clientId: string | null | undefined): ClientOrigin => (clientId ? ORIGINS.get(clientId) : undefined) ?? 'unknown';

/** The portal apps, first and second (SPEC.md section 6): returned to by their custom URL scheme (section 4). */
export const isPortalOrigin = (origin: ClientOrigin): boolean => origin === 'portal' || origin === 'secondPortal';

export const isPortalClient = (clientId: string | null | undefined): boolean => isPortalOrigin(clientOrigin(clientId));

/**
 * The services only cardholders of the company use (SPEC.md section 6: "Only cardholders of the card
 * company can use the chat-account service"): the line answer. The server refuses them to a member
 * without a card at every door (apps/server/src/modules/oauth/cardholders-only.ts); the SPA says
 * so where it would otherwise offer them.
 */
export const isCardholdersOnly = (clientId: string | null | undefined): boolean => clientOrigin(clientId) === 'lineAnswer';
