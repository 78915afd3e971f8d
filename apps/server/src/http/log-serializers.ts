import type { FastifyRequest } from 'fastify';

/**
 * Query parameters whose values say nothing secret: they stay readable in the request log. Every
 * other value is replaced, whatever its name: one-time tokens of reset and activation links
 * (`onetime_token`, `one_time_token`), codes and states of the OAuth redirects (RFC 6749 section
 * 10.5, RFC 9700 section 4.2.4: a code must not leak through logs), PKCE challenges, Net Answer's
 * `key`, and any parameter added later. A list of what may be shown, not of what must be hidden, so
 * that a new secret parameter is never logged by default (docs/security.md, "Secrets in the logs").
 */
const SHOWN = new Set(['client_id', 'redirect_uri', 'response_type', 'scope', 'code_challenge_method', 'target', 'error', 'iss']);

export const REDACTED = '[redacted]';

const nameOf = (pair: string): string => {
  const raw = pair.split('=', 1)[0] ?? '';
  try {
    return decodeURIComponent(raw.replaceAll('+', ' '));
  } catch {
    return raw;
  }
};

/** The URL with the value of every query parameter not in SHOWN replaced; the path and the names stay. */
export function redactQuery(url: string): string {
  const at = url.indexOf('?');
  if (at < 0) return url;
  const pairs = url.slice(at + 1).split('&').map((pair) => (pair === '' || SHOWN.has(nameOf(pair)) ? pair : `${pair.split('=', 1)[0]}=${REDACTED}`));
  return `${url.slice(0, at)}?${pairs.join('&')}`;
}

/** Fastify's request serializer (the same fields as its default) with the query's values redacted. */
export const requestSerializer = (request: FastifyRequest) => ({
  method: request.method,
  url: redactQuery(request.url),
  host: request.host,
  remoteAddress: request.ip,
  remotePort: request.socket?.remotePort,
});
