import type { FastifyInstance } from 'fastify';
import { z, type ZodObject, type ZodType } from 'zod';
import { API_CATALOGUE } from '@sso/contracts/api-catalogue';
import { API_TAGS, type ApiRoute } from '@sso/contracts/api-route';
import { failureResponseSchema, oauthErrorSchema } from '@sso/contracts/common';
import { route } from './route.ts';
import { SCOPE_DESCRIPTIONS } from '@sso/contracts/scopes';
import { ROLE_DESCRIPTIONS } from '@sso/contracts/operators';

type Json = Record<string, unknown>;

/** The version of the API the document describes. */
const API_VERSION = '1.0.0';

/**
 * A contract as JSON Schema 2020-12, the dialect of OpenAPI 3.1's Schema Object: a request as the
 * caller sends it (`input`: defaults may be left out), an answer as the server sends it (`output`).
 */
function jsonSchema(schema: ZodType, io: 'input' | 'output'): Json {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, target: 'draft-2020-12' }) as Json;
  return rest;
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const jsonContent = (schema: Json) => ({ 'application/json': { schema } });
const challenge = (description: string) => ({ 'WWW-Authenticate': { description, schema: { type: 'string' } } });

/** Member-API failures: the result-code body of SPEC.md section 8. */
const RESULT_FAILURES: Json = {
  400: {
    description: 'A failure result code (SPEC.md section 8): 200 credentials, 203 locked, 205 reCAPTCHA, 300 access denied, 901 validation (with validation_errors), 902 retryable, 903 and 904 sign-up guides',
    content: jsonContent(ref('Failure')),
  },
  500: { description: 'An unexpected failure: result 500 with a support reference', content: jsonContent(ref('Failure')) },
  503: { description: 'Out of service, or the database unavailable: result 501', content: jsonContent(ref('Failure')) },
};

/** What the Bearer guard answers before any work (RFC 6750 section 3.1; decision 0010). */
const BEARER_FAILURES: Json = {
  401: {
    description: 'No token, a dead one, or (where noted) no fresh proof on the session: result 300',
    headers: challenge('`Bearer`, `Bearer error="invalid_token"`, or `Bearer error="insufficient_user_authentication", max_age=300` (RFC 9470)'),
    content: jsonContent(ref('Failure')),
  },
  403: {
    description: 'A live token without the scope this operation declares: result 300',
    headers: challenge('`Bearer error="insufficient_scope", scope="<the scope>"`'),
    content: jsonContent(ref('Failure')),
  },
};

/** What the operator guard answers before any work (modules/operators/operator-post.ts; decision 0032). */
const OPERATOR_FAILURES: Json = {
  401: {
    description: 'No operator token, a dead one (ended, 15 minutes idle, 8 hours old, its operator disabled), or (where noted) no passkey proof in the last 5 minutes: result 300',
    headers: challenge('`Bearer`, `Bearer error="invalid_token"`, or `Bearer error="insufficient_user_authentication", max_age=300` (RFC 9470)'),
    content: jsonContent(ref('Failure')),
  },
  403: {
    description: "A member's access token (another audience), or an operator whose role does not reach this operation: result 300",
    headers: challenge('`Bearer error="insufficient_scope", error_description="…", scope="operator:<the role>"`'),
    content: jsonContent(ref('Failure')),
  },
  404: { description: 'The member (or passkey, pending sign-up) the operation names is unknown: result 902', content: jsonContent(ref('Failure')) },
  409: { description: "The member's state does not allow the action (not locked, withdrawn, already suspended, not suspended): result 902", content: jsonContent(ref('Failure')) },
};

/** The OAuth endpoints' failures (RFC 6749 section 5.2). */
const OAUTH_FAILURES: Json = {
  400: { description: 'invalid_request, invalid_grant, unauthorized_client, unsupported_grant_type, invalid_scope', content: jsonContent(ref('OAuthError')) },
  401: { description: 'invalid_client: the client failed to authenticate', headers: challenge('`Basic realm="oauth"`'), content: jsonContent(ref('OAuthError')) },
  429: {
    description:
      'temporarily_unavailable: too many failed client authentications of the client or from the address (decision 0038), or at /api/auth/par too many pushes of public clients from the address (decision 0036); retry after Retry-After seconds',
    headers: { 'Retry-After': { schema: { type: 'integer' } } },
    content: jsonContent(ref('OAuthError')),
  },
  500: { description: 'server_error, with a support reference', content: jsonContent(ref('OAuthError')) },
  503: { description: 'temporarily_unavailable', content: jsonContent(ref('OAuthError')) },
};

/** An authorize or hand-off redirect: the outcome is in the Location, a request it cannot redirect safely gets a page. */
const REDIRECT_ANSWERS: Json = {
  303: { description: 'Redirect: the outcome (code, error, or the next page) is in the Location', headers: { Location: { schema: { type: 'string' } } } },
  400: {
    description: 'An unknown client, an unregistered redirect URI or a bad target: an HTML page and no redirect (RFC 6749 section 4.1.2.1); a malformed body: result 901',
    content: { 'text/html': { schema: { type: 'string' } }, ...jsonContent(ref('Failure')) },
  },
};

/** The query parameters of a contract, one a property (OpenAPI 3.1 section 4.8.12). */
function queryParameters(query: ZodObject): Json[] {
  const schema = jsonSchema(query, 'input') as { properties: Record<string, Json>; required?: string[] };
  return Object.entries(schema.properties).map(([name, property]) => ({
    name,
    in: 'query',
    required: schema.required?.includes(name) ?? false,
    schema: property,
  }));
}

function requestBody(route: ApiRoute): Json | undefined {
  const [media, schema] = route.json ? ['application/json', route.json] : route.form ? ['application/x-www-form-urlencoded', route.form] : [];
  return media && schema ? { required: true, content: { [media]: { schema: jsonSchema(schema, 'input') } } } : undefined;
}

function security(route: ApiRoute): Json[] | undefined {
  if (route.bearer) return [{ memberToken: [route.bearer].flat() }];
  // OpenAPI 3.1 section 4.8.30: for a scheme other than OAuth 2.0, the list names the roles required.
  if (route.role && route.role !== 'public') return [{ operatorToken: [route.role] }];
  if (route.client === 'confidential') return [{ clientBasic: [] }];
  // A public client names itself with client_id in the form; a confidential one authenticates.
  if (route.client === 'any') return [{ clientBasic: [] }, {}];
  return undefined;
}

function responses(route: ApiRoute): Json {
  const answer =
    route.answer === 'redirect'
      ? REDIRECT_ANSWERS
      : route.media
        ? { 200: { description: 'Success: one JSON object per line (JSON Lines), streamed', content: { [route.media]: { schema: jsonSchema(route.answer, 'output') } } } }
        : { 200: { description: 'Success', content: jsonContent(jsonSchema(route.answer, 'output')) } };
  const more = Object.fromEntries(Object.entries(route.more ?? {}).map(([status, m]) => [status, { description: m.description, content: jsonContent(jsonSchema(m.schema, 'output')) }]));
  const guard = route.bearer ? BEARER_FAILURES : route.role && route.role !== 'public' ? OPERATOR_FAILURES : {};
  return { ...(route.oauth ? OAUTH_FAILURES : RESULT_FAILURES), ...guard, ...answer, ...more };
}

/** `POST /api/user/attribute` -> `postApiUserAttribute`. */
const operationId = (route: ApiRoute) =>
  route.method.toLowerCase() + route.path.split(/[^A-Za-z0-9]+/).filter(Boolean).map((w) => w[0]!.toUpperCase() + w.slice(1)).join('');

function operation(route: ApiRoute): Json {
  const role = route.role && (route.role === 'public' ? 'Operator API, public: the enrolment or sign-in ceremony (decision 0032).' : `Operator role: \`${route.role}\` or above (${ROLE_DESCRIPTIONS[route.role]}).`);
  const cors = route.cors && `Open to a public client's registered web origins (CORS, decision 0035)${route.client ? ": a browser's call from another origin must come from the client's own, else invalid_client" : ''}.`;
  const description = [route.ja, role, route.note, route.client ? 'Client authentication: HTTP Basic, or client_id and client_secret in the form (RFC 6749 section 2.3.1).' : undefined, cors]
    .filter(Boolean)
    .join('\n\n');
  return {
    operationId: operationId(route),
    tags: [route.tag],
    summary: route.summary,
    ...(description ? { description } : {}),
    ...(route.query ? { parameters: queryParameters(route.query) } : {}),
    ...(requestBody(route) ? { requestBody: requestBody(route) } : {}),
    ...(security(route) ? { security: security(route) } : {}),
    ...(route.role ? { 'x-operator-role': route.role } : {}),
    responses: responses(route),
  };
}

/**
 * The OpenAPI 3.1 document of the API (ARCHITECTURE.md "schemas give validation and OpenAPI"),
 * generated from the routes' catalogue and their contracts, never written by hand.
 */
export function openApiDocument(routes: readonly ApiRoute[], issuer: string): Json {
  const paths: Record<string, Json> = {};
  for (const route of routes) paths[route.path] = { ...paths[route.path], [route.method.toLowerCase()]: operation(route) };
  return {
    openapi: '3.1.1',
    info: {
      title: 'メンバーID API',
      version: API_VERSION,
      description:
        'The single sign-on API of the member ID: the OAuth 2.0 authorization server (code flow with PKCE S256) and the member APIs. Member APIs answer `result_code` 0 on success and the result codes of SPEC.md section 8 on failure; the OAuth endpoints answer RFC 6749 errors. For partner services: docs/partners.md.',
    },
    servers: [{ url: issuer }],
    tags: Object.entries(API_TAGS).map(([name, description]) => ({ name, description })),
    paths,
    components: {
      schemas: { Failure: jsonSchema(failureResponseSchema, 'output'), OAuthError: jsonSchema(oauthErrorSchema, 'output') },
      securitySchemes: {
        memberToken: {
          type: 'oauth2',
          description: "The member's access token (RFC 6750 Bearer), holding the scope the operation names (decision 0010)",
          flows: {
            authorizationCode: {
              authorizationUrl: `${issuer}/content/authorize`,
              tokenUrl: `${issuer}/api/auth/token`,
              refreshUrl: `${issuer}/api/auth/token`,
              scopes: SCOPE_DESCRIPTIONS,
            },
          },
        },
        operatorToken: {
          type: 'http',
          scheme: 'bearer',
          description: `An operator token of POST /api/admin/login (decision 0032), never a member's; the operation names the least role it needs. Roles, each holding the rights of those before it: ${Object.entries(ROLE_DESCRIPTIONS).map(([role, what]) => `\`${role}\` (${what})`).join('; ')}.`,
        },
        clientBasic: { type: 'http', scheme: 'basic', description: 'client_id and client_secret of a registered client (RFC 6749 section 2.3.1)' },
      },
    },
  };
}

/**
 * GET /api/openapi.json: public, the same for every caller, and cacheable (it changes only with a
 * release). Made on the first request, not at every start.
 */
export function registerOpenApi(app: FastifyInstance, issuer: string): void {
  let body: string | undefined;
  route(app, 'GET /api/openapi.json', async (_request, reply) => {
    body ??= JSON.stringify(openApiDocument(API_CATALOGUE, issuer));
    return reply.header('Cache-Control', 'public, max-age=3600').type('application/json; charset=utf-8').send(body);
  });
}
