import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z, ZodType } from 'zod';
import { API, type ApiKey, type BearerKey } from '@sso/contracts/api-catalogue';
import type { ApiRoute } from '@sso/contracts/api-route';
import { parseOr901, parseOrInvalidRequest } from './parse.ts';

type Entry<K extends ApiKey> = (typeof API)[K];

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The least operator role an operator API needs, or `public` for its ceremonies (decision 0032),
     * declared in the route's line of the API catalogue (`role`) and set here.
     */
    role?: NonNullable<ApiRoute['role']>;
    /** A door a browser opens itself (the catalogue's `answer: 'redirect'`): out of service, its navigation goes to /503 (navigation.ts). */
    navigable?: boolean;
    /** Open to browser apps' web origins (the catalogue's `cors`; web-origin-cors.ts, decision 0035). */
    cors?: boolean;
  }
}

/** What the entry's contract makes of the body: its JSON or form schema's output, or nothing for an entry without one. */
export type BodyOf<K extends ApiKey> =
  Entry<K> extends { json: infer S extends ZodType } ? z.output<S> : Entry<K> extends { form: infer S extends ZodType } ? z.output<S> : undefined;

/** What a route's handler gets by default: the body read by the contract, or nothing at a Bearer endpoint (memberPost reads it after the token). */
type DefaultBody<K extends ApiKey> = K extends BearerKey ? undefined : BodyOf<K>;

/**
 * The body of a request to `key`, read with its catalogue entry's contract: failures answer 901 with
 * field keys (SPEC.md section 8), or RFC 6749 invalid_request at an OAuth endpoint (section 5.2).
 */
export function readBody<K extends ApiKey>(key: K, raw: unknown): BodyOf<K> {
  const entry: ApiRoute = API[key];
  const schema = entry.json ?? entry.form;
  if (!schema) return undefined as BodyOf<K>;
  return (entry.oauth ? parseOrInvalidRequest(schema, raw) : parseOr901(schema, raw)) as BodyOf<K>;
}

/** For a route whose handler reads the body itself (after another check, or leniently): the route passes it nothing. */
export const readInHandler = (): undefined => undefined;

export interface RouteExtra<I> {
  /** Reads the body otherwise than by the entry's contract: a schema of the day, a reader of its own, or `readInHandler`. */
  body?: (raw: unknown) => I;
  /** Fastify's automatic HEAD twin of a GET route: off where a GET does work that a HEAD must not (RFC 9110 section 9.3.2). */
  exposeHeadRoute?: false;
}

export type RouteHandler<I> = (request: FastifyRequest, reply: FastifyReply, body: I) => unknown;

/**
 * Registers the route the API catalogue declares under `key` (packages/contracts/src/api-catalogue.ts):
 * its method and path, the Bearer scope its guard demands (`config.scope`, oauth/bearer.ts), the operator
 * role (`config.role`, modules/operators/operator-post.ts), RFC 6749
 * error bodies (`config.oauth`, error-handler.ts), and the body read by its contract before the handler
 * runs (but at a Bearer endpoint, whose token is checked first: modules/oauth/member-post.ts).
 */
export function route<K extends ApiKey, I = DefaultBody<K>>(app: FastifyInstance, key: K, handler: RouteHandler<I>, extra: RouteExtra<I> = {}): void {
  const entry: ApiRoute = API[key];
  const read = extra.body ?? ((raw: unknown) => (entry.bearer ? undefined : readBody(key, raw)) as I);
  app.route({
    method: entry.method,
    url: entry.path,
    config: { ...(entry.bearer ? { scope: entry.bearer } : {}), ...(entry.role ? { role: entry.role } : {}), ...(entry.oauth ? { oauth: true } : {}), ...(entry.answer === 'redirect' ? { navigable: true } : {}), ...(entry.cors ? { cors: true } : {}) },
    ...(extra.exposeHeadRoute === false ? { exposeHeadRoute: false } : {}),
    handler: async (request, reply) => handler(request, reply, read(request.body)),
  });
}
