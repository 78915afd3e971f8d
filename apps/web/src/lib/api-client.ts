import { LIMITS } from '@sso/contracts/constants';
import { RESULT } from '@sso/contracts/result-codes';
import { apiBase } from './env.ts';
import { goToError, reloginMessage } from './navigation.ts';
import { clearTokens, getTokenRecord, isLoggedIn, saveTokens } from './records.ts';
import { ApiFailure, failureFromBody, failureFromError, FreshProofNeeded, unexpectedFailure } from './result.ts';

export interface RequestOptions {
  /** Send the access token as a Bearer header (SPEC.md section 7, "(Bearer)"). */
  auth?: boolean;
  json?: unknown;
  form?: Record<string, string>;
  signal?: AbortSignal;
  /** false: a 401 is a plain failure, with no refresh and no error flow (used by logout). */
  refreshOn401?: boolean;
  /** With `auth`: this access token instead of the stored one (a login not yet kept, decision 0013). */
  accessToken?: string;
}

const TOKEN_PATH = '/api/auth/token';

let refreshing: Promise<boolean> | undefined;

async function send(path: string, opts: RequestOptions): Promise<Response> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  let body: string | undefined;
  if (opts.json !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(opts.json);
  } else if (opts.form) {
    headers['Content-Type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(opts.form).toString();
  }
  // A request made while the tokens are being re-issued waits, so that it carries the new token.
  if (opts.auth && refreshing) await refreshing;
  const token = opts.accessToken ?? getTokenRecord().accessToken;
  if (opts.auth && token) headers.Authorization = `Bearer ${token}`;
  try {
    return await fetch(`${apiBase()}${path}`, { method: 'POST', headers, body, signal: opts.signal, credentials: 'same-origin' });
  } catch (e) {
    // The caller's own abort (the page went away) stays an abort; a timeout is a network failure.
    const reason: unknown = opts.signal?.reason;
    if (opts.signal?.aborted && !(reason instanceof Error && reason.name === 'TimeoutError')) throw e;
    throw failureFromError(e);
  }
}

async function readJson(res: Response): Promise<unknown> {
  try {
    return await res.json();
  } catch {
    return undefined;
  }
}

/**
 * Re-issues the tokens with the refresh token (SPEC.md section 7, /api/auth/token). Single flight:
 * concurrent callers share one request, because a refresh token is single use and a second use
 * looks like a replay. A rejected refresh clears the tokens; a network failure keeps them.
 */
export function refreshTokens(): Promise<boolean> {
  refreshing ??= (async () => {
    const t = getTokenRecord();
    if (!t.refreshToken || !t.clientId) return false;
    // The contract (and zod) loads on first use, out of the login route's JavaScript (issue 9); the
    // protected screens have usually loaded it already. Loaded before sending: a refresh token is
    // single use, so it is not spent on an answer that could not be read.
    const contract = await import('@sso/contracts/auth').catch(() => undefined);
    if (!contract) return false;
    const res = await send(TOKEN_PATH, {
      form: {
        grant_type: 'refresh_token',
        client_id: t.clientId,
        redirect_uri: t.redirectUri ?? '',
        refresh_token: t.refreshToken,
        terminal_id: t.terminalId,
      },
    }).catch(() => undefined);
    if (!res) return false;
    if (!res.ok) {
      clearTokens();
      return false;
    }
    const parsed = contract.tokenResponseSchema.safeParse(await readJson(res));
    if (!parsed.success) {
      console.warn('token response does not match the contract', parsed.error.issues);
      return false;
    }
    saveTokens({
      clientId: t.clientId,
      redirectUri: t.redirectUri ?? '',
      accessToken: parsed.data.access_token,
      refreshToken: parsed.data.refresh_token ?? t.refreshToken,
    });
    return true;
  })().finally(() => {
    refreshing = undefined;
  });
  return refreshing;
}

/**
 * Refresh on entry to a protected page, only if the token was issued more than `ms` earlier
 * (SPEC.md section 4; 500 ms by section 9). A rejected refresh shows the error flow with the
 * re-login suggestion.
 */
export async function refreshIfOlderThan(ms: number = LIMITS.refreshOnEntryAfterMs): Promise<void> {
  if (!isLoggedIn()) return;
  const issuedAt = getTokenRecord().issuedAt ?? 0;
  if (Date.now() - issuedAt <= ms) return;
  await refreshOrRelogin();
}

/** A refresh the server rejected (the tokens are cleared) ends in the error flow with the re-login suggestion. */
async function refreshOrRelogin(): Promise<void> {
  if (!(await refreshTokens()) && !isLoggedIn()) goToError(RESULT.ACCESS_DENIED, reloginMessage());
}

/** The scheduled refresh (SPEC.md section 4; every 30 minutes by section 9) while logged in. */
export function startScheduledRefresh(intervalMs: number = LIMITS.refreshIntervalMs): () => void {
  const timer = setInterval(() => {
    if (isLoggedIn()) void refreshOrRelogin();
  }, intervalMs);
  return () => clearInterval(timer);
}

const asksFreshProof = (res: Response) =>
  res.status === 401 && (res.headers.get('WWW-Authenticate') ?? '').includes('error="insufficient_user_authentication"');

/**
 * POSTs to the API and gives the body of a success (result_code 0, or a body with no result code
 * such as a token). A 401 from any API but the token endpoint causes one refresh and one retry,
 * marked as retried; if the refresh fails the tokens are cleared and the error flow suggests logging
 * in again (SPEC.md section 4); but a 401 asking for a fresh proof (RFC 9470) is thrown at once as
 * FreshProofNeeded. Every failure is thrown as an ApiFailure (SPEC.md section 8).
 */
export async function apiPost<T>(path: string, opts: RequestOptions = {}, retried = false): Promise<T> {
  const res = await send(path, opts);
  // A step-up challenge (RFC 9470) is no expired token: neither a refresh nor the re-login flow helps.
  if (asksFreshProof(res)) throw new FreshProofNeeded(failureFromBody(res.status, await readJson(res)).result, res.status);
  if (res.status === 401 && path !== TOKEN_PATH && !retried && opts.refreshOn401 !== false) {
    if (await refreshTokens()) return apiPost<T>(path, opts, true);
    clearTokens();
    goToError(RESULT.ACCESS_DENIED, reloginMessage());
    throw failureFromBody(res.status, await readJson(res));
  }
  const body = await readJson(res);
  if (!res.ok) throw failureFromBody(res.status, body);
  if (body === undefined || body === null) throw unexpectedFailure(res.status);
  const code = (body as { result_code?: unknown }).result_code;
  if (typeof code === 'number' && code !== RESULT.OK) throw failureFromBody(res.status, body);
  return body as T;
}

export { ApiFailure };
