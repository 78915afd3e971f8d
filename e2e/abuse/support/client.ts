/**
 * A plain HTTP client of the running system, as a partner service or an attacker would use it:
 * real requests over loopback (keep-alive, through Node's fetch), nothing in-process. It is the
 * test harness's one OAuth test client (apps/server/src/test-support/oauth-client.ts).
 */
export {
  authorize,
  basicAuth,
  codeGrant,
  codeOf,
  exchange,
  formBody,
  get,
  login,
  NET_ANSWER_AUTH,
  pkce,
  post,
  refresh,
  spaClient,
  tokenRequest,
  type Answer,
  type AuthorizeRequest,
  type Pkce,
  type PostOptions,
  type Tokens,
} from '@sso/server/test-support';

export const DEMO_CARD = { user: 'demo.card@example.com', mobile: '09000000001', password: 'Demo1234' };
export const DEMO_OPEN = { user: 'demo.open@example.com', mobile: '09000000002', password: 'Demo1234' };

/** Runs `n` calls of `fn` at once and returns their results in order. */
export const inParallel = <T>(n: number, fn: (i: number) => Promise<T>): Promise<T[]> => Promise.all(Array.from({ length: n }, (_, i) => fn(i)));
