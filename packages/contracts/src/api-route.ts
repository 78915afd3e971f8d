import { z, type ZodObject, type ZodType } from 'zod';
import './zod-config.ts';
import type { OperatorRole } from './operators.ts';
import type { Scope } from './scopes.ts';

/** The groups of the OpenAPI document's operations, in the order it lists them. */
export const API_TAGS = {
  oauth: 'OAuth 2.0: authorization, tokens, revocation, introspection, metadata (RFC 6749, 7009, 7636, 7662, 8414)',
  login: 'Login, passkey sign-in and the fresh proof',
  account: "The member's account (Bearer)",
  signup: 'Card and open sign-up',
  recover: 'Password recovery',
  cards: 'Cards (sub-users)',
  'direct-login': 'Direct login: hand-offs to partner services by one-time token',
  points: 'Points and the open-account link',
  operators: "The operator API: the card company's staff, signed in by passkey only (decision 0032)",
  service: 'The service itself: health and this document',
} as const;
export type ApiTag = keyof typeof API_TAGS;

/**
 * One route of the API as the OpenAPI document publishes it (api-catalogue.ts): what it takes,
 * what it answers, and who may call it. The document is generated from these and the contracts'
 * schemas (apps/server/src/http/openapi.ts), never written by hand.
 */
export type ApiMethod = 'GET' | 'POST';

export interface ApiRoute {
  method: ApiMethod;
  path: string;
  tag: ApiTag;
  /** What it does, in English. */
  summary: string;
  /** The same in Japanese, where the flow is a member's (SPEC.md's screens). */
  ja?: string;
  /** More for the caller: a condition, a decision record. */
  note?: string;
  /**
   * A member's access token holding this scope, or every one of these scopes where the answer shows
   * what several scopes guard (RFC 6750; decision 0010): the route's `config.scope`, set from here.
   */
  bearer?: Scope | readonly Scope[];
  /**
   * An operator API (decision 0032): the least role whose operator token may call it (the role order
   * is operators.ts's), or `public` for the enrolment and sign-in ceremonies. The route's
   * `config.role`, set from here; never beside `bearer`.
   */
  role?: OperatorRole | 'public';
  /** The client authenticates (RFC 6749 section 2.3.1): any registered client, or a confidential one only. */
  client?: 'any' | 'confidential';
  /** The query parameters, one a property. */
  query?: ZodObject;
  /** The body as JSON, or as an HTML form (application/x-www-form-urlencoded). */
  json?: ZodType;
  form?: ZodType;
  /** The answer: 200 with this JSON body, or a 303 redirect whose Location says the outcome. */
  answer: ZodType | 'redirect';
  /**
   * The 200 answer's media type when it is not one JSON document: `application/x-ndjson` streams
   * JSON Lines (https://jsonlines.org/), `answer` being the schema of one line.
   */
  media?: 'application/x-ndjson';
  /** Failures answer RFC 6749 section 5.2 error bodies, not result codes: the route's `config.oauth`. */
  oauth?: true;
  /**
   * A browser app's page on a registered web origin may call it (CORS, Fetch standard; decision
   * 0035): the answer and the preflight (OPTIONS, answered before routing, not a route of its own)
   * carry the CORS headers for that origin; with `client`, only for the client's own origins.
   */
  cors?: true;
  /** Answers beside the usual ones, by HTTP status (they replace a usual one of the same status). */
  more?: Record<number, { description: string; schema: ZodType }>;
}

/** A route as the catalogue writes it: its key (`METHOD path`) names the method and the path. */
export type ApiEntry = Omit<ApiRoute, 'method' | 'path'>;

/** GET /api/openapi.json: an OpenAPI 3.1 document (its own meta-schema says the rest). */
export const apiDocumentSchema = z.looseObject({
  openapi: z.string(),
  info: z.looseObject({ title: z.string(), version: z.string() }),
  paths: z.record(z.string(), z.unknown()),
});
