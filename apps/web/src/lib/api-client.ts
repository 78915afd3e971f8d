import type { z } from 'zod';
import { LIMITS } from '@sso/contracts/constants';
import { SERVER_MESSAGES } from '@sso/contracts/messages';
import { RESULT } from '@sso/contracts/result-codes';
import { apiBase } from './env.ts';
import { goToError, reloginMessage } from './navigation.ts';
import { clearTokens, getTokenRecord, isLoggedIn, saveTokens, tokensEnded } from './records.ts';
import { ApiFailure, failureFromBody, failureFromError, FreshProofNeeded, networkFailure, unexpectedFailure } from './result.ts';
import type * as LoginAnswerSchemas from './login-answers.ts';
import { checkShape } from './shape.ts';
import { readTokenAnswer, type TokenFields } from './token-answer.ts';

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
  /** The answer's name in the warning of a mismatch with its contract (SPEC.md section 3); the path by default. */
  what?: string;
}

const TOKEN_PATH = '/api/auth/token';

let refreshing: Promise<RefreshOutcome> | undefined;

/** An answer, and the stored access token it carried (none: it carried none, or one of its own). */
interface Sent {
  res: Response;
  storedToken: string | undefined;
}

async function send(path: string, opts: RequestOptions): Promise<Sent> {
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
  const storedToken = opts.auth && !opts.accessToken ? token : undefined;
  try {
    return { res: await fetch(`${apiBase()}${path}`, { method: 'POST', headers, body, signal: opts.signal, credentials: 'same-origin' }), storedToken };
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
 * What a refresh came to (SPEC.md sections 4 and 8). Only a refused grant ends the login: the
 * tokens are then cleared. Any other failure keeps them, for the member to go on once the API
 * answers again: no answer, a 5xx or an unreadable answer is the network message (C99-000700),
 * with the server's support reference when it logged one; out of service (HTTP 503 or result
 * 501) the /503 page.
 */
export type RefreshOutcome = { kind: 'renewed' } | { kind: 'refused' } | { kind: 'failed'; failure: ApiFailure };

const RENEWED: RefreshOutcome = { kind: 'renewed' };
const REFUSED: RefreshOutcome = { kind: 'refused' };
const failed = (failure: ApiFailure): RefreshOutcome => ({ kind: 'failed', failure });

/**
 * RFC 6749 section 5.2: an error answer (HTTP 400 or 401 with an `error`) is the token endpoint's
 * lasting refusal, whatever the error (invalid_grant, invalid_client, unauthorized_client,
 * unsupported_grant_type, invalid_request, invalid_scope): asking again gets the same answer, so
 * it is no network failure (decision 0017). Only `temporarily_unavailable` passes.
 */
function refusesGrant(status: number, body: unknown): boolean {
  const error = (body as { error?: unknown } | undefined)?.error;
  return (status === 400 || status === 401) && typeof error === 'string' && error !== 'temporarily_unavailable';
}

/** A result body whose result_code is no success (such as 501, out of service), whatever the HTTP status. */
function carriesFailureCode(body: unknown): boolean {
  const code = (body as { result_code?: unknown } | undefined)?.result_code;
  return typeof code === 'number' && code !== RESULT.OK;
}

/** A failed refresh answer as a failure the member sees: out of service as such, anything else the network message. */
function refreshFailure(status: number, body: unknown): ApiFailure {
  const failure = failureFromBody(status, body);
  if (status === 503 || failure.result.result_code === RESULT.OUT_OF_SERVICE) {
    return new ApiFailure({ result_code: RESULT.OUT_OF_SERVICE, result_message: SERVER_MESSAGES.outOfService }, status);
  }
  // The reference of a logged 5xx goes on to /500, for the member to quote to support (docs/operations.md).
  const { reference } = failure.result;
  return reference ? new ApiFailure({ ...networkFailure().result, reference }, status) : networkFailure();
}

/**
 * Re-issues the tokens with the refresh token (SPEC.md section 7, /api/auth/token). Single flight:
 * concurrent callers share one request, because a refresh token is single use and a second use
 * looks like a replay. Only a refusal (an RFC 6749 section 5.2 error answer) clears the tokens (RefreshOutcome).
 */
export function refreshTokens(): Promise<RefreshOutcome> {
  refreshing ??= (async (): Promise<RefreshOutcome> => {
    const t = getTokenRecord();
    if (!t.refreshToken || !t.clientId) return REFUSED;
    // The contract (and zod) loads on first use, out of the login route's JavaScript; the
    // protected screens have usually loaded it already. Loaded before sending: a refresh token is
    // single use, so it is not spent on an answer that could not be read. A chunk that does not
    // load is the network failing.
    const contract = await loginAnswers().catch(() => undefined);
    if (!contract) return failed(networkFailure());
    let res: Response;
    try {
      ({ res } = await send(TOKEN_PATH, {
        form: {
          grant_type: 'refresh_token',
          client_id: t.clientId,
          redirect_uri: t.redirectUri ?? '',
          refresh_token: t.refreshToken,
          terminal_id: t.terminalId,
        },
      }));
    } catch (e) {
      return failed(failureFromError(e));
    }
    const body = await readJson(res);
    if (!res.ok || carriesFailureCode(body)) {
      if (!refusesGrant(res.status, body)) return failed(refreshFailure(res.status, body));
      clearTokens();
      return REFUSED;
    }
    let answer: TokenFields;
    try {
      answer = readTokenAnswer(contract.tokenResponseSchema, body, 'token refresh');
    } catch {
      return failed(networkFailure());
    }
    saveTokens({
      clientId: t.clientId,
      redirectUri: t.redirectUri ?? '',
      accessToken: answer.access_token,
      refreshToken: answer.refresh_token ?? t.refreshToken,
    });
    return RENEWED;
  })().finally(() => {
    refreshing = undefined;
  });
  return refreshing;
}

/**
 * Settles when the refresh in flight, if any, is over, whatever came of it: the logout waits for it
 * (lib/logout.ts), so that it ends the session as the refresh left it.
 */
export async function refreshSettled(): Promise<void> {
  await refreshing?.then(
    () => undefined,
    () => undefined,
  );
}

/** The re-login error flow (SPEC.md section 4): the message with C99-000500 appended. */
const goToRelogin = () => goToError(RESULT.ACCESS_DENIED, reloginMessage());

/**
 * Refresh on entry to a protected page, only if the token was issued more than `ms` earlier
 * (SPEC.md section 4; 500 ms by section 9).
 */
export async function refreshIfOlderThan(ms: number = LIMITS.refreshOnEntryAfterMs): Promise<void> {
  if (!isLoggedIn()) return;
  const issuedAt = getTokenRecord().issuedAt ?? 0;
  if (Date.now() - issuedAt <= ms) return;
  await refreshOrShow({ quietOnNetwork: false });
}

/**
 * A refresh of its own (on entry, scheduled) shows what came of it: a refused grant the re-login
 * message; out of service /503; the network failing the network message, the member still logged
 * in, unless `quietOnNetwork` (the scheduled one, decision 0017).
 */
async function refreshOrShow({ quietOnNetwork }: { quietOnNetwork: boolean }): Promise<void> {
  const outcome = await refreshTokens();
  if (outcome.kind === 'refused') goToRelogin();
  else if (outcome.kind === 'failed') {
    const { result_code, result_message, reference } = outcome.failure.result;
    if (quietOnNetwork && result_code !== RESULT.OUT_OF_SERVICE) return;
    goToError(result_code, result_message, reference);
  }
}

/**
 * The scheduled refresh (SPEC.md section 4; every 30 minutes by section 9) while logged in. Silent
 * when the network or the server fails (decision 0017): it fires on whatever page is open, maybe
 * mid-form, and the tokens are kept for the next tick or the next 401 to try again.
 */
export function startScheduledRefresh(intervalMs: number = LIMITS.refreshIntervalMs): () => void {
  const timer = setInterval(() => {
    // Not while a logout is ending the tokens: it is revoking the refresh token this would spend.
    if (isLoggedIn() && !tokensEnded()) void refreshOrShow({ quietOnNetwork: true });
  }, intervalMs);
  return () => clearInterval(timer);
}

const asksFreshProof = (res: Response) =>
  res.status === 401 && (res.headers.get('WWW-Authenticate') ?? '').includes('error="insufficient_user_authentication"');

/** The schemas of the login route's answers, loaded on first use (login-answers.ts). */
type LoginAnswers = typeof LoginAnswerSchemas;
const loginAnswers = () => import('./login-answers.ts');

/**
 * POSTs to the API and gives the body of a success (result_code 0, or a body with no result code
 * such as a token), read with its contract schema `answer`: the schema of packages/contracts that
 * api-catalogue.ts names as the route's answer, or, for a call of the login route, that schema's
 * name in login-answers.ts, which loads while the request is on its way (zod stays out of that
 * route's JavaScript, bench/lib/spa-size.ts). A 401 from any API but the token endpoint causes one
 * refresh and one retry, marked as retried; if the server refuses the refresh the tokens are
 * cleared and the error flow suggests logging in again (SPEC.md section 4), any other failed
 * refresh is thrown as it is (RefreshOutcome); but a 401 asking for a fresh proof (RFC 9470) is
 * thrown at once as FreshProofNeeded.
 *
 * Every failure is thrown as an ApiFailure (SPEC.md section 8) before the schema is looked at: a
 * result code other than 0 (200, 300, 901, 902, 501 ...) reaches the caller with the server's body
 * as it came (its `validation_errors`, `terms`), an error status with its body, a network failure
 * as 99999 (C99-000700). A success without a JSON body is the unexpected answer: code 500 with the
 * message C99-000999, which errorRouteFor sends to /500 (SPEC.md section 8, "Any other code").
 *
 * A success that does not match its schema is no failure: SPEC.md section 3 says a mismatch with
 * the response shapes only logs a warning (named by `what`, else the path), and the body goes on as
 * it came, for the caller to use what it carries; a caller that cannot go on without a field fails
 * with the unexpected answer itself (token-answer.ts: no access token). A matching body comes back
 * parsed (defaults applied, unknown fields dropped). A login-route schema that does not load leaves
 * the answer unchecked, with a warning, as a mismatch does.
 */
export async function apiPost<S extends z.ZodType>(path: string, answer: S, opts?: RequestOptions): Promise<z.output<S>>;
export async function apiPost<K extends keyof LoginAnswers>(path: string, answer: K, opts?: RequestOptions): Promise<z.output<LoginAnswers[K]>>;
export async function apiPost(path: string, answer: z.ZodType | keyof LoginAnswers, opts: RequestOptions = {}): Promise<unknown> {
  const what = opts.what ?? path;
  // A login-route schema loads while the request is on its way.
  const schema =
    typeof answer === 'string' ? loginAnswers().then((m) => m[answer], (e: unknown) => console.warn(`${what}: the contract did not load`, e)) : answer;
  const body = await postForBody(path, opts);
  const loaded = await schema;
  return loaded ? checkShape(loaded, body, what) : body;
}

/** The request of apiPost and its one retry after a refresh: the body of a success, any failure thrown. */
async function postForBody(path: string, opts: RequestOptions, retried = false): Promise<unknown> {
  const { res, storedToken } = await send(path, opts);
  // A step-up challenge (RFC 9470) is no expired token: neither a refresh nor the re-login flow helps.
  if (asksFreshProof(res)) throw new FreshProofNeeded(failureFromBody(res.status, await readJson(res)).result, res.status);
  // Sent with tokens this tab has since ended (a logout on its way, a withdrawal): the 401 is that
  // ending's, and the member is already going where it sends them.
  const ended = storedToken !== undefined && tokensEnded(storedToken);
  if (res.status === 401 && path !== TOKEN_PATH && !retried && opts.refreshOn401 !== false && !ended) {
    const outcome = await refreshTokens();
    if (outcome.kind === 'renewed') return postForBody(path, opts, true);
    // The network or the service failing is no logout: the screen shows it as it shows its own
    // failures (the network message on the page, out of service /503), the tokens kept.
    if (outcome.kind === 'failed') throw outcome.failure;
    clearTokens();
    goToRelogin();
    throw failureFromBody(res.status, await readJson(res));
  }
  const body = await readJson(res);
  if (!res.ok) throw failureFromBody(res.status, body);
  if (body === undefined || body === null) throw unexpectedFailure(res.status);
  const code = (body as { result_code?: unknown }).result_code;
  if (typeof code === 'number' && code !== RESULT.OK) throw failureFromBody(res.status, body);
  return body;
}

export { ApiFailure };
