import type { OAuthClient } from '../clients/clients.ts';

/**
 * This API as a resource server: the audience every token of this server names (RFC 7519 section
 * 4.1.3, RFC 7662 section 2.2 `aud`). The Bearer endpoints accept only tokens that name it
 * (docs/decisions/0010-scopes-and-audience.md).
 */
export const API_AUDIENCE = 'member-api';

/**
 * The audience of a token issued to `client`: this API, and the resource servers the client's
 * registry entry names (`audience`, client ids): those may introspect the client's tokens, as Net
 * Answer checks the tokens of the web and portal apps (SPEC.md section 7). Space-separated, as scope.
 */
export const audienceOf = (client: OAuthClient): string => [API_AUDIENCE, ...client.audience].join(' ');

/**
 * Whether `caller` may introspect a token (RFC 7662 section 4: the server decides which protected
 * resources may learn about which tokens): the client it was issued to, or a client its audience names.
 */
export const mayIntrospect = (caller: string, token: { client_id: string; audience: string }): boolean =>
  caller === token.client_id || token.audience.split(' ').includes(caller);
