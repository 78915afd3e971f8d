import { ACR_VALUES } from '@sso/contracts/constants';
import { acrOf } from './id-token.ts';

/** The classes this server tells apart (ACR_VALUES, `acr_values_supported`), weakest first: a passkey meets a request for basic too. */
const LEVELS: readonly string[] = [ACR_VALUES.basic, ACR_VALUES.phishingResistant];

/**
 * Whether a sign-in of these RFC 8176 methods meets an authorization request's `acr_values`
 * (OpenID Connect Core 1.0 section 3.1.2.1; decision 0025): the values are the classes the client
 * accepts, in order of preference, so the sign-in must be at least the weakest of those this server
 * knows. Values it does not know are passed over (a voluntary claim); a request of none of its values
 * asks for nothing. A session that knows no method (a direct login's) meets no request.
 */
export function meetsAcrValues(amr: readonly string[], acrValues: string | undefined): boolean {
  const asked = (acrValues ?? '').split(' ').map((v) => LEVELS.indexOf(v)).filter((level) => level >= 0);
  if (asked.length === 0) return true;
  const acr = acrOf(amr);
  return acr !== undefined && LEVELS.indexOf(acr) >= Math.min(...asked);
}

/** The error description of a request whose `acr_values` a sign-in did not meet (an `access_denied` redirect). */
export const ACR_NOT_MET = 'the authentication the client asked for (acr_values) was not met: sign in with a passkey';
