import { isScope } from '@sso/contracts/scopes';
import type { OAuthClient } from '../clients/clients.ts';

/**
 * The scope granted for a requested one (RFC 6749 section 3.3; docs/decisions/0010-scopes-and-
 * audience.md): none asked gives the client's own list; otherwise each asked scope, once, in the
 * order asked. Undefined, to be answered `invalid_scope`, when any is unknown or not the client's.
 */
export function grantedScope(client: OAuthClient, requested: string): string | undefined {
  const asked = [...new Set(requested.split(' ').filter((s) => s !== ''))];
  if (asked.length === 0) return client.scopes.join(' ');
  return asked.every((s) => isScope(s) && client.scopes.includes(s)) ? asked.join(' ') : undefined;
}
