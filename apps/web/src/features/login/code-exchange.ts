import { tokenResponseSchema } from '@sso/contracts/auth';
import { apiPost } from '../../lib/api-client.ts';
import { getTokenRecord, type OAuthClientRecord } from '../../lib/records.ts';
import { tokenFields, type TokenFields } from '../../lib/token-answer.ts';

/**
 * The code exchange of the authorize callback (RFC 6749 section 4.1.3 with the PKCE verifier,
 * RFC 7636 section 4.5) on this browser's terminal. An answer off its contract only warns while it
 * carries the tokens (SPEC.md section 3).
 */
export async function exchangeCode(client: OAuthClientRecord, code: string): Promise<TokenFields> {
  const body = await apiPost('/api/auth/token', tokenResponseSchema, {
    what: 'code exchange',
    form: {
      grant_type: 'authorization_code',
      code,
      client_id: client.clientId,
      redirect_uri: client.redirectUri,
      code_verifier: client.codeVerifier,
      terminal_id: getTokenRecord().terminalId,
    },
  });
  return tokenFields(body);
}
