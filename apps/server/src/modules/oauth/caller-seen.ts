import type { OAuthClient } from '../clients/clients.ts';

/**
 * What a row of the member's activity log written during a client's own request (the token,
 * revocation and direct-login token endpoints) records of the caller. A confidential client calls
 * from its own server: that address and user agent are the partner's, not the member's, so the row
 * records neither (modules/activity/activity-repo.ts: a null address, not the request's). A public
 * client calls from the member's browser or app: its device, and the request's address.
 */
export const callerSeen = (client: Pick<OAuthClient, 'type'>, device: string | null = null): { device: string | null; address?: null } =>
  client.type === 'confidential' ? { device: null, address: null } : { device };
