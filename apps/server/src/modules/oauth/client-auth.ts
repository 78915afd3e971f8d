import { OAuthError } from '../../lib/app-error.ts';
import type { ClientRegistry, OAuthClient } from '../clients/clients.ts';

const invalidClient = () => new OAuthError('invalid_client', 'client authentication failed', 401);

/**
 * Client authentication at the token, revocation and introspection endpoints (RFC 6749 section
 * 2.3.1): HTTP Basic or client_id/client_secret in the body. Public clients name themselves only.
 */
export function authenticateClient(
  clients: ClientRegistry,
  authorization: string | undefined,
  body: { client_id?: string | undefined; client_secret?: string | undefined },
  opts: { requireConfidential?: boolean } = {},
): OAuthClient {
  let id = body.client_id;
  let secret = body.client_secret;
  if (authorization?.startsWith('Basic ')) {
    const decoded = Buffer.from(authorization.slice(6), 'base64').toString('utf8');
    const sep = decoded.indexOf(':');
    if (sep < 0) throw invalidClient();
    try {
      id = decodeURIComponent(decoded.slice(0, sep).replace(/\+/g, ' '));
      secret = decodeURIComponent(decoded.slice(sep + 1).replace(/\+/g, ' '));
    } catch {
      throw invalidClient();
    }
    if (body.client_id !== undefined && body.client_id !== id) throw invalidClient();
  }
  const client = id ? clients.get(id) : undefined;
  if (!client) throw invalidClient();
  if (opts.requireConfidential && client.type !== 'confidential') throw invalidClient();
  if (!clients.authenticate(client, secret)) throw invalidClient();
  return client;
}
