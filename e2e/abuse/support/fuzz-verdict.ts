import { RESULT } from '@sso/contracts/result-codes';
import { FUZZ_TABLE } from './fuzz-endpoints.ts';
import type { FuzzAnswer, FuzzRequest } from './fuzz-http.ts';
import type { Endpoint } from './fuzz-requests.ts';

/**
 * The property every fuzzed answer must have (docs/security.md "Bad input"; ARCHITECTURE.md "One error
 * type"; OWASP ASVS 5.0 V16.5 "errors never disclose internals"): no 5xx; no stack trace, SQL text
 * or internal path; and the shape of its endpoint: a result-code body of SPEC.md section 8, an
 * RFC 6749 section 5.2 error body on the OAuth endpoints, or a page or redirect for the GET pages.
 */

/** SPEC.md section 8 server result codes, and 0 for success (result-codes.ts); 99999 is the client's own. */
const RESULT_CODES = new Set<number>(Object.values(RESULT).filter((c) => c !== RESULT.CLIENT_SPECIAL));

/**
 * RFC 6749 section 5.2, RFC 7009 section 2.2.1, the authorization endpoint's codes a pushed request
 * may be refused with (RFC 9126 section 2.3: RFC 6749 section 4.1.2.1's), and the 503 answer of a
 * database fault.
 */
const OAUTH_ERRORS = new Set([
  'invalid_request',
  'unsupported_response_type',
  'invalid_client',
  'invalid_grant',
  'unauthorized_client',
  'unsupported_grant_type',
  'invalid_scope',
  'unsupported_token_type',
  'temporarily_unavailable',
]);

/** What an answer must never show. Each is searched in the answer's body and headers. */
const LEAKS: [string, RegExp][] = [
  ['SQL text', /\bSELECT\b|\bINSERT INTO\b|\bDELETE FROM\b|\bUPDATE "?\w+"? SET\b/],
  ['sqlite', /sqlite/i],
  ['SQLITE_ code', /SQLITE_/],
  ['SQL syntax error', /syntax error/i],
  ['PostgreSQL relation', /\brelation\b/i],
  ['internal path', /\/work\b|apps\/server|node_modules|\.ts:|\.js:\d/],
  ['error text', /\b\w*Error:/],
  ['stack trace', /\n\s+at \S|\bat (async )?[\w.<>]+ \([^)]*:\d+:\d+\)/],
];

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export const isResultBody = (j: unknown, status: number) =>
  isObject(j) &&
  typeof j.result_code === 'number' &&
  // 404: the not-found handler's body, for a method the route does not take.
  (RESULT_CODES.has(j.result_code) || (j.result_code === 404 && status === 404)) &&
  typeof j.result_message === 'string' &&
  (j.validation_errors === undefined || Array.isArray(j.validation_errors));

const isOAuthError = (j: unknown) =>
  isObject(j) && typeof j.error === 'string' && OAUTH_ERRORS.has(j.error) && (j.error_description === undefined || typeof j.error_description === 'string');

/** A token answer (RFC 6749 section 5.1), an introspection (RFC 7662 section 2.2) or a revocation's empty body (RFC 7009 section 2.2). */
const isOAuthSuccess = (j: unknown) =>
  isObject(j) && (typeof j.access_token === 'string' || typeof j.active === 'boolean' || Object.keys(j).length === 0);

/** RFC 9126 section 2.2: a pushed authorization request's 201 answer. */
const isPushedRequest = (j: unknown) => isObject(j) && typeof j.request_uri === 'string' && typeof j.expires_in === 'number';

/** The JSON resources: the metadata (RFC 8414, OpenID Connect Discovery), the key set, userinfo, the health check, the OpenAPI document and the development mailbox. */
const isJsonResource = (route: string, j: unknown) =>
  (route.startsWith('/.well-known/') && isObject(j) && typeof j.issuer === 'string') ||
  (route === '/api/auth/jwks' && isObject(j) && Array.isArray(j.keys)) ||
  (route === '/api/auth/userinfo' && isObject(j) && typeof j.sub === 'string') ||
  (['/api/health', '/api/health/live', '/api/health/ready'].includes(route) && isObject(j) && j.status === 'ok') ||
  (route === '/api/openapi.json' && isObject(j) && typeof j.openapi === 'string') ||
  (route === '/dev/mailbox.json' && Array.isArray(j));

const contentType = (a: FuzzAnswer) => String(a.headers['content-type'] ?? '');

const isPage = (e: Endpoint, a: FuzzAnswer) => {
  const type = contentType(a);
  if (a.status >= 300 && a.status < 400) return typeof a.headers.location === 'string' && a.headers.location.length > 0;
  if (type.startsWith('text/html')) return true;
  // The not-found text of a GET outside the API (error-handler.ts).
  if (a.status === 404 && type.startsWith('text/plain')) return true;
  return a.status === 200 && ((e.route.endsWith('.js') && type.includes('javascript')) || (e.route.endsWith('.css') && type.startsWith('text/css')));
};

function parseJson(a: FuzzAnswer): unknown {
  if (!contentType(a).includes('json')) return undefined;
  try {
    return JSON.parse(a.text) as unknown;
  } catch {
    return undefined;
  }
}

/** The request as text, raw and percent-decoded: a pattern found here may come back as an echo, not a leak. */
function sentText(r: FuzzRequest): string {
  const raw = `${r.method} ${r.path}\n${JSON.stringify(r.headers)}\n${r.body?.toString('utf8') ?? ''}`;
  const decoded = raw.replace(/(?:%[0-9A-Fa-f]{2})+/g, (m) => {
    try {
      return decodeURIComponent(m);
    } catch {
      return m;
    }
  });
  return `${raw}\n${decoded.replaceAll('+', ' ')}`;
}

/** A 5xx, or internals in the body or headers that the request did not itself carry. */
function failureOrLeak(r: FuzzRequest, a: FuzzAnswer): string | undefined {
  if (a.status >= 500) return `HTTP ${a.status}`;
  const seen = `${a.text}\n${Object.values(a.headers).flat().join('\n')}`;
  let sent: string | undefined;
  for (const [name, pattern] of LEAKS) {
    if (pattern.test(seen) && !pattern.test((sent ??= sentText(r)))) return `shows ${name}`;
  }
  return undefined;
}

/** Why the answer breaks the property, or undefined when it keeps it. */
export function verdict(e: Endpoint, r: FuzzRequest, a: FuzzAnswer): string | undefined {
  const failed = failureOrLeak(r, a);
  if (failed) return failed;
  if (r.method === 'HEAD') return a.text === '' ? undefined : 'HEAD answered with a body';
  // A route that takes the other method too (userinfo, end_session, the authorize endpoint) is judged as that endpoint.
  const sibling = r.method !== e.method ? FUZZ_TABLE.find((x) => x.route === e.route && x.method === r.method) : undefined;
  if (sibling) return verdict(sibling, r, a);
  const json = parseJson(a);
  if (r.method !== e.method) {
    // No route takes the method: the not-found handler or the error handler answers (error-handler.ts),
    // or a CORS preflight an OPTIONS: the development one (security-headers.ts) from the Vite origin, or
    // at the endpoints open to web origins (web-origin-cors.ts, decision 0035) from any origin.
    if (isResultBody(json, a.status) || (r.method === 'OPTIONS' && a.status === 204 && a.text === '')) return undefined;
    return 'not a result-code body (no route)';
  }
  if (e.expect === 'oauth') {
    if (isOAuthError(json) || (a.status === 200 && isOAuthSuccess(json)) || (a.status === 201 && isPushedRequest(json))) return undefined;
    // A fuzzed path that names no page of the route (the demo partner's back-channel logout URI) is
    // answered before the route, by the not-found or error handler (error-handler.ts).
    if (e.paths && a.status >= 400 && a.status < 500 && isResultBody(json, a.status)) return undefined;
    return 'not an RFC 6749 error body';
  }
  if (isResultBody(json, a.status)) return undefined;
  if (e.expect === 'page' && isPage(e, a)) return undefined;
  if (e.expect === 'json' && a.status === 200 && isJsonResource(e.route, json)) return undefined;
  return e.expect === 'result' ? 'not a result-code body' : `not a ${e.expect} answer`;
}

/**
 * The answer to a raw request (fuzz-raw.ts): Node's parser refused it (error-handler.ts
 * clientErrorHandler: 400 or 431, the 901 body, the connection closed) or the route answered as
 * `verdict` wants. One request gets one answer: a second one would mean the server read part of
 * the request as another (request smuggling, RFC 9112 section 11.2).
 */
export function rawVerdict(e: Endpoint, sent: Buffer, a: FuzzAnswer & { statusLines: number }, oneRequest: boolean): string | undefined {
  if (a.statusLines === 0) return 'no answer';
  if (oneRequest && a.statusLines > 1) return `${a.statusLines} answers to one request`;
  const r: FuzzRequest = { method: e.method, path: '', headers: {}, body: sent };
  // Node itself answers an HTTP/1.1 request without Host 400 with no body (RFC 9112 section 3.2), before Fastify: nothing to leak.
  const refused =
    (a.status === 400 || a.status === 431) && a.headers.connection === 'close' && (isResultBody(parseJson(a), a.status) || (a.status === 400 && a.text === ''));
  return refused ? failureOrLeak(r, a) : verdict(e, r, a);
}
