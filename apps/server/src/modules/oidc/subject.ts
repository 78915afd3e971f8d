import { keptPairwiseDigest } from '../../lib/secrets.ts';
import type { OAuthClient } from '../clients/clients.ts';

/**
 * The sector a client's subject identifiers are computed for (OpenID Connect Core 1.0 section 8.1):
 * its registry entry's `sector_identifier` when it names one, which clients that may know the member
 * by one identifier share (the web client and the portal apps, config/clients.json), otherwise the
 * client itself. Not the host of the redirect URIs: partners' pages may share a host (the demo
 * partners do), and a partner that moves to another host must keep its members (decision 0025).
 * The two kinds are prefixed apart, so that no client id can name another's sector.
 */
export const sectorOf = (client: Pick<OAuthClient, 'client_id' | 'sector_identifier'>): string =>
  client.sector_identifier !== undefined ? `sector:${client.sector_identifier}` : `client:${client.client_id}`;

/**
 * The member's pairwise subject identifier for a client (OpenID Connect Core 1.0 section 8.1): a keyed
 * digest (HMAC-SHA256 under PAIRWISE_KEY) of the sector and the member id, the same in the client's
 * ID tokens, userinfo, introspection and logout tokens, and different for every other sector, so that
 * two partners cannot join their members, and never the member id itself. Kept for the next request
 * that asks (lib/secrets.ts `keptPairwiseDigest`): an introspection answers one each time.
 */
export const subjectFor = (client: Pick<OAuthClient, 'client_id' | 'sector_identifier'>, userId: string): string =>
  keptPairwiseDigest(`${sectorOf(client)}\n${userId}`);
