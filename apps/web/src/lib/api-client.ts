import { tokenResponseSchema } from '@sso/contracts/auth';
import { LIMITS } from '@sso/contracts/constants';
import { apiBase } from './env.ts';
import { goToError, reloginMessage } from './navigation.ts';
import { clearTokens, getTokenRecord, saveTokens } from './records.ts';
import { ApiFailure, failureFromBody, networkFailure, unexpectedFailure } from './result.ts';

export interface RequestOptions {
  /** Send the access token as a Bearer header (SPEC.md section 7, "(Bearer)"). */
  auth?: boolean;
  json?: unknown;
  form?: Record<string, string>;
  signal?: AbortSignal;
}

const TOKEN_PATH = '/api/auth/token';

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
  const token = getTokenRecord().accessToken;
  if (opts.auth && token) headers.Authorization = `Bearer ${token}`;
  try {
    return await fetch(`${apiBase()}${path}`, { method: 'POST', headers, body, signal: opts.signal, credentials: 'same-origin' });
  } catch (e) {
    if (e instanceof DOMException && e.name === 'AbortError' && opts.signal?.aborted && opts.signal.reason?.name !== 'TimeoutError') throw e;
    throw networkFailure();
  }
}

async function readJson(res: Response): Promise<unknown> {
  try {
    return await res.json();
  } catch {
    return undefined;
  }
}

let refreshing: Promise<boolean> | undefined;

/**
 * Re-issues the tokens with the refresh token. Single flight: concurrent callers share one request,
 * because a refresh token is single use and a second use looks like a replay.
 */
export function refreshTokens(): Promise<boolean> {
  refreshing ??= (async () => {
    const t = getTokenRecord();
    if (!t.refreshToken || !t.clientId) return false;
    const res = await send(TOKEN_PATH, {
      form: {
        grant_type: 'refresh_token',
        client_id: t.clientId,
        redirect_uri: t.redirectUri ?? '',
        refresh_token: t.refreshToken,
        terminal_id: t.terminalId,
      },
    }).catch(() => undefined);
    if (!res?.ok) {
      if (res) clearTokens();
      return false;
    }
    const parsed = tokenResponseSchema.safeParse(await readJson(res));
    if (!parsed.success || !parsed.data.refresh_token) return false;
    saveTokens({ clientId: t.clientId, redirectUri: t.redirectUri ?? '', accessToken: parsed.data.access_token, refreshToken: parsed.data.refresh_token });
    return true;
  })().finally(() => {
    refreshing = undefined;
  });
  return refreshing;
}

/** Refresh on entry to a protected page, only if the token was issued more than 500 ms earlier. */
export async function refreshIfOlderThan(ms: number = LIMITS.refreshOnEntryAfterMs, now = Date.now()): Promise<void> {
  const issuedAt = getTokenRecord().issuedAt ?? 0;
  if (now - issuedAt > ms) await refreshTokens();
}

/**
 * POSTs to the API. A 401 from any API but the token endpoint causes one refresh and one retry,
 * marked as retried; if the refresh fails the error flow suggests logging in again (SPEC.md section 4).
 */
export async function apiPost<T>(path: string, opts: RequestOptions = {}, retried = false): Promise<T> {
  const res = await send(path, opts);
  if (res.status === 401 && path !== TOKEN_PATH && !retried) {
    if (await refreshTokens()) return apiPost<T>(path, opts, true);
    clearTokens();
    goToError(500, reloginMessage());
    throw failureFromBody(res.status, await readJson(res));
  }
  const body = await readJson(res);
  if (!res.ok) throw failureFromBody(res.status, body);
  if (body === undefined) throw unexpectedFailure(res.status);
  return body as T;
}

export { ApiFailure };
