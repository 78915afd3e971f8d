import type { BaseResponse } from '@sso/contracts/common';
import type { Subuser } from '@sso/contracts/cards';
import { WEB_CLIENT_ID } from '@sso/contracts/constants';
import {
  directLoginTokenGrantResponseSchema,
  directLoginTokenResponseSchema,
  directLoginUrlResponseSchema,
} from '@sso/contracts/direct-login';
import { apiPost } from '../../lib/api-client.ts';
import { getTokenRecord } from '../../lib/records.ts';
import { checkShape } from '../../lib/shape.ts';

/** The direct-login and hand-off calls (SPEC.md section 7; decision 0006). */

/**
 * POST /api/auth/direct_login/token: the one-time token exchanged as the web client on this
 * browser's terminal. A refused token (an OAuth error, not a 401 to refresh) is a plain failure.
 */
export const exchangeDirectLogin = async (onetimeToken: string) =>
  directLoginTokenGrantResponseSchema.parse(
    await apiPost<unknown>('/api/auth/direct_login/token', {
      form: { grant_type: 'password', onetime_token: onetimeToken, client_id: WEB_CLIENT_ID, terminal_id: getTokenRecord().terminalId },
      refreshOn401: false,
    }),
  );

/** POST /api/subuser/direct_login/na: Net Answer's one-time URL for the card. */
export const netAnswerUrl = async (card: Subuser, param1: string, param2: string) =>
  checkShape(
    directLoginUrlResponseSchema,
    await apiPost<unknown>('/api/subuser/direct_login/na', {
      auth: true,
      json: { subuser_id: card.subuser_id, member_type: card.member_type, param1, param2 },
    }),
    'Net Answer direct login',
  ).direct_login_url;

/** POST /api/subuser/na/add: links the card's Net Answer account by its id and password. */
export const linkNetAnswer = (subuserId: string, naId: string, naPassword: string) =>
  apiPost<BaseResponse>('/api/subuser/na/add', { auth: true, json: { subuser_id: subuserId, na_id: naId, na_password: naPassword } });

/**
 * The service hand-off (decision 0006): a one-time token for the service
 * (/api/subuser/direct_login/sc), then the URL that hands it over (/api/preauth/direct_login).
 */
export async function serviceUrl(clientId: string, card: Subuser | undefined): Promise<string> {
  const issued = checkShape(
    directLoginTokenResponseSchema,
    await apiPost<unknown>('/api/subuser/direct_login/sc', {
      auth: true,
      json: { subuser_id: card?.subuser_id ?? '', member_type: card?.member_type ?? 'open', client_id: clientId },
    }),
    'service direct login',
  );
  const handed = await apiPost<unknown>('/api/preauth/direct_login', { json: { onetime_token: issued.onetime_token, client_id: clientId } });
  return checkShape(directLoginUrlResponseSchema, handed, 'direct login URL').direct_login_url;
}
