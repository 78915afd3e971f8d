import { DIRECT_LOGIN_TARGETS, isDirectLoginTarget } from '@sso/contracts/constants';

/** What /direct/callback does with its query (SPEC.md section 2, "Direct-login callback"). */
export type CallbackPlan =
  | { kind: 'notFound' }
  | { kind: 'missingToken' }
  | { kind: 'exchange'; token: string; route: string; source: string | undefined; state: string };

/**
 * A target outside the seven of SPEC.md section 2 is not found (whatever else the query holds);
 * a known target without its token is an error; otherwise the token is exchanged and the member
 * goes to the target's screen.
 */
export function callbackPlan(search: URLSearchParams): CallbackPlan {
  const target = search.get('target');
  if (!isDirectLoginTarget(target)) return { kind: 'notFound' };
  const token = search.get('onetime_token');
  if (!token) return { kind: 'missingToken' };
  return { kind: 'exchange', token, route: DIRECT_LOGIN_TARGETS[target], source: search.get('source') || undefined, state: search.get('state') ?? '' };
}

export interface ServiceTarget {
  clientId: string;
  serviceName: string;
  /** The PKCE challenge of the portal app that asked for the hand-off (decision 0013); the server checks it. */
  proof?: { code_challenge: string; code_challenge_method: string };
}

const CLIENT_ID = /^[A-Za-z0-9_-]{1,64}$/;
const MAX_NAME = 100;
const MAX_PROOF = 128;

function fromParams(params: URLSearchParams): ServiceTarget | undefined {
  const clientId = params.get('client_id');
  if (!clientId || !CLIENT_ID.test(clientId)) return undefined;
  const target: ServiceTarget = { clientId, serviceName: (params.get('service_name') ?? '').trim().slice(0, MAX_NAME) };
  const challenge = params.get('code_challenge');
  if (challenge) {
    target.proof = { code_challenge: challenge.slice(0, MAX_PROOF), code_challenge_method: (params.get('code_challenge_method') ?? '').slice(0, MAX_PROOF) };
  }
  return target;
}

/**
 * The service /subuser/redirect/service hands off to (SPEC.md section 2: "takes client_id and
 * service_name in its query or state"; a portal app adds its code_challenge and
 * code_challenge_method, decision 0013): the query first, else the session's redirectState read as
 * a query string (a direct login's `state`, such as `client_id=SIAP002&service_name=…`).
 */
export function serviceTarget(search: URLSearchParams, redirectState: string | undefined): ServiceTarget | undefined {
  const fromQuery = fromParams(search);
  if (fromQuery || search.has('client_id') || !redirectState) return fromQuery;
  return fromParams(new URLSearchParams(redirectState.replace(/^\?/, '')));
}
