import { baseResponseSchema } from '@sso/contracts/common';
import type { Subuser } from '@sso/contracts/cards';
import { WEB_CLIENT_ID } from '@sso/contracts/constants';
import { revocationResponseSchema } from '@sso/contracts/oauth-endpoints';
import {
  directLoginTermsAcceptResponseSchema,
  directLoginTokenGrantResponseSchema,
  directLoginTokenResponseSchema,
  directLoginUrlResponseSchema,
} from '@sso/contracts/direct-login';
import { ApiFailure, apiPost } from '../../lib/api-client.ts';
import { getTokenRecord } from '../../lib/records.ts';
import { tokenFields, type TokenFields } from '../../lib/token-answer.ts';

/** The direct-login and hand-off calls (SPEC.md section 7; decision 0006). */

/**
 * POST /api/auth/direct_login/token: the one-time token exchanged as the web client on this
 * browser's terminal. A refused token (an OAuth error, not a 401 to refresh) is a plain failure; an
 * answer off its contract only warns while it carries the tokens (SPEC.md section 3).
 */
export const exchangeDirectLogin = async (onetimeToken: string): Promise<TokenFields> =>
  tokenFields(
    await apiPost('/api/auth/direct_login/token', directLoginTokenGrantResponseSchema, {
      form: { grant_type: 'password', onetime_token: onetimeToken, client_id: WEB_CLIENT_ID, terminal_id: getTokenRecord().terminalId },
      refreshOn401: false,
      what: 'direct-login exchange',
    }),
  );

/** POST /api/subuser/direct_login/na: Net Answer's one-time URL for the card. */
export const netAnswerUrl = async (card: Subuser, param1: string, param2: string) =>
  (
    await apiPost('/api/subuser/direct_login/na', directLoginUrlResponseSchema, {
      auth: true,
      json: { subuser_id: card.subuser_id, member_type: card.member_type, param1, param2 },
      what: 'Net Answer direct login',
    })
  ).direct_login_url;

/** POST /api/subuser/na/add: links the card's Net Answer account by its id and password. */
export const linkNetAnswer = (subuserId: string, naId: string, naPassword: string) =>
  apiPost('/api/subuser/na/add', baseResponseSchema, { auth: true, json: { subuser_id: subuserId, na_id: naId, na_password: naPassword } });

/** A portal app's PKCE challenge, given by the app that asked for the hand-off (decision 0013). */
export interface HandOffProof {
  code_challenge: string;
  code_challenge_method: string;
}

/**
 * The service hand-off (decision 0006): a one-time token for the service
 * (/api/subuser/direct_login/sc; a portal app's bound to its challenge, decision 0013), then the
 * URL that hands it over (/api/preauth/direct_login).
 */
export async function serviceUrl(clientId: string, card: Subuser | undefined, proof: HandOffProof | undefined): Promise<string> {
  const issued = await apiPost('/api/subuser/direct_login/sc', directLoginTokenResponseSchema, {
    auth: true,
    json: { subuser_id: card?.subuser_id ?? '', member_type: card?.member_type ?? 'open', client_id: clientId, ...proof },
    what: 'service direct login',
  });
  const handed = await apiPost('/api/preauth/direct_login', directLoginUrlResponseSchema, {
    json: { onetime_token: issued.onetime_token, client_id: clientId },
    what: 'direct login URL',
  });
  return handed.direct_login_url;
}

/** The terms a refused hand-off names (902 with `terms`, decision 0013); undefined for any other failure. */
export function outstandingTermsOf(e: unknown): string[] | undefined {
  if (!(e instanceof ApiFailure)) return undefined;
  const terms = (e.result as { terms?: unknown }).terms;
  return Array.isArray(terms) && terms.length > 0 && terms.every((t) => typeof t === 'string') ? terms : undefined;
}

/** POST /api/subuser/direct_login/terms_accept: the member accepts a service's terms; answers those still outstanding. */
export const acceptServiceTerms = async (clientId: string, terms: string[]) =>
  (
    await apiPost('/api/subuser/direct_login/terms_accept', directLoginTermsAcceptResponseSchema, {
      auth: true,
      json: { client_id: clientId, terms },
      what: 'service terms acceptance',
    })
  ).terms;

/** Ends a login that is not kept (RFC 7009, /api/auth/revoke): the hand-off's, when the member stays in the open account. */
export const revokeLogin = (refreshToken: string) =>
  apiPost('/api/auth/revoke', revocationResponseSchema, {
    refreshOn401: false,
    form: { token: refreshToken, token_type_hint: 'refresh_token', client_id: WEB_CLIENT_ID },
  }).catch(() => undefined);
