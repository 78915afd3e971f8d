import type { z } from 'zod';
import { API, type ApiEntryOf, type ApiKey } from '@sso/contracts/api-catalogue';
import type { ApiMethod } from '@sso/contracts/api-route';
import { failureResponseSchema } from '@sso/contracts/common';
import { SERVER_MESSAGES } from '@sso/contracts/messages';
import { OPERATOR_MESSAGES } from '@sso/contracts/operators';
import { operatorToken, type TokenStore } from './token-store.ts';

/** The operator API's routes: every catalogue key under /api/admin (decision 0030). */
export type AdminKey = Extract<ApiKey, `${string} /api/admin/${string}`>;

/** An operator API route as the console calls it: its catalogue entry, whose `answer` schema parses the answer. */
interface AdminRoute<S extends z.ZodType, J extends z.ZodType> {
  method: ApiMethod;
  path: string;
  role: string;
  answer: S;
  json?: J;
}

/** The catalogue entry of an operator API route. */
export const adminRoute = <K extends AdminKey>(key: K): ApiEntryOf<K> => API[key];

/** What a route answers: the output of its contract's answer schema. */
export type AnswerOf<K extends AdminKey> = z.output<ApiEntryOf<K>['answer']>;

/** A refusal of the operator API, with its Japanese message (SPEC.md section 8's result codes). */
export class ApiFailure extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly resultCode: number | undefined,
  ) {
    super(message);
    this.name = 'ApiFailure';
  }
}

/** 401 `insufficient_user_authentication` (RFC 9470): the action needs a passkey proof of the last 5 minutes. */
export class FreshProofNeeded extends ApiFailure {
  constructor(message: string) {
    super(message, 401, undefined);
    this.name = 'FreshProofNeeded';
  }
}

/** Any other 401: the operator token is gone or dead (idle, absolute limit, logout, operator disabled). */
export class SessionEnded extends ApiFailure {
  constructor() {
    super('セッションの有効期限が切れました。もう一度ログインしてください。', 401, undefined);
    this.name = 'SessionEnded';
  }
}

/** The network or the server failed to answer in the contract's shape. */
export const NETWORK_MESSAGE = '通信に失敗しました。時間をおいてもう一度お試しください。';

export interface ApiOptions {
  fetcher?: typeof fetch;
  tokens?: TokenStore;
  signal?: AbortSignal;
}

/**
 * Calls an operator API route by its catalogue entry (`adminRoute(key)`): the route's path, the operator token as Bearer,
 * the body as JSON; the answer parsed by the route's own answer schema (never cast). A refusal throws
 * ApiFailure (FreshProofNeeded, SessionEnded); a 401 that is not a step-up forgets the token.
 */
export async function adminCall<S extends z.ZodType, J extends z.ZodType = never>(
  entry: AdminRoute<S, J>,
  body: [J] extends [never] ? undefined : z.input<J>,
  options: ApiOptions = {},
): Promise<z.output<S>> {
  const res = await send(entry, body, options);
  const json: unknown = await res.json().catch(() => undefined);
  const failure = failureResponseSchema.safeParse(json);
  if (!res.ok || (failure.success && failure.data.result_code !== 0)) throw refusal(res.status, json);
  const answer = entry.answer.safeParse(json);
  if (!answer.success) throw new ApiFailure(NETWORK_MESSAGE, res.status, undefined);
  return answer.data;
}

/**
 * Calls an operator API route that answers JSON Lines (the audit export, `media` in the catalogue):
 * the text as sent, and each line parsed by the route's answer schema, one row a line. A line outside
 * the contract fails the whole answer.
 */
export async function adminLines<S extends z.ZodType, J extends z.ZodType = never>(
  entry: AdminRoute<S, J>,
  body: [J] extends [never] ? undefined : z.input<J>,
  options: ApiOptions = {},
): Promise<{ text: string; rows: z.output<S>[] }> {
  const res = await send(entry, body, options);
  if (!res.ok || !(res.headers.get('Content-Type') ?? '').includes('ndjson')) throw refusal(res.status, await res.json().catch(() => undefined));
  const text = await res.text();
  const rows: z.output<S>[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      throw new ApiFailure(NETWORK_MESSAGE, res.status, undefined);
    }
    const row = entry.answer.safeParse(value);
    if (!row.success) throw new ApiFailure(NETWORK_MESSAGE, res.status, undefined);
    rows.push(row.data);
  }
  return { text, rows };
}

/** The refusal a failed answer says: its result code and Japanese message, else the network's. */
function refusal(status: number, json: unknown): ApiFailure {
  const failure = failureResponseSchema.safeParse(json);
  return new ApiFailure(failure.data?.result_message ?? (status === 403 ? SERVER_MESSAGES.accessDenied : NETWORK_MESSAGE), status, failure.data?.result_code);
}

/** Sends the request of a route: the token (but to a public ceremony), the JSON body; a 401 is thrown as a step-up or a dead session. */
async function send(entry: { method: ApiMethod; path: string; role: string }, body: unknown, options: ApiOptions): Promise<Response> {
  const tokens = options.tokens ?? operatorToken;
  const token = tokens.get();
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (token !== undefined && entry.role !== 'public') headers.Authorization = `Bearer ${token}`;
  let res: Response;
  try {
    res = await (options.fetcher ?? fetch)(entry.path, {
      method: entry.method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: 'same-origin',
      signal: options.signal,
    });
  } catch (e) {
    if (e instanceof DOMException && e.name === 'AbortError') throw e;
    throw new ApiFailure(NETWORK_MESSAGE, 0, undefined);
  }
  if (res.status === 401) {
    const json: unknown = await res.json().catch(() => undefined);
    if ((res.headers.get('WWW-Authenticate') ?? '').includes('insufficient_user_authentication')) {
      throw new FreshProofNeeded(failureResponseSchema.safeParse(json).data?.result_message ?? OPERATOR_MESSAGES.freshProofNeeded);
    }
    tokens.clear();
    throw new SessionEnded();
  }
  return res;
}

/**
 * Runs an action; when the server asks for a fresh passkey proof (FreshProofNeeded), asks `prove` for
 * one and runs the action once more. `prove` resolves false when the operator gives up: the refusal
 * then stands.
 */
export async function withFreshProof<T>(action: () => Promise<T>, prove: () => Promise<boolean>): Promise<T> {
  try {
    return await action();
  } catch (e) {
    if (!(e instanceof FreshProofNeeded)) throw e;
    if (!(await prove())) throw e;
    return action();
  }
}

/** What a screen says of a failure: the API's own message, else the network's. */
export const failureMessage = (e: unknown): string => (e instanceof Error && e instanceof ApiFailure ? e.message : NETWORK_MESSAGE);
