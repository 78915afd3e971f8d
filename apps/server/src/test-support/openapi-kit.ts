import { Ajv2020 } from 'ajv/dist/2020.js';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';

type Schema = Record<string, unknown>;
interface Answer {
  content?: Record<string, { schema: Schema }>;
}
interface Operation {
  security?: Record<string, string[]>[];
  'x-operator-role'?: string;
  responses: Record<string, Answer>;
}
/** The parts of the OpenAPI document (http/openapi.ts) that the tests read. */
export interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
}

/** The document as GET /api/openapi.json serves it. */
export async function servedDocument(app: FastifyInstance): Promise<OpenApiDocument> {
  const res = await app.inject({ method: 'GET', url: '/api/openapi.json' });
  if (res.statusCode !== 200) throw new Error(`GET /api/openapi.json answered ${res.statusCode}`);
  return res.json();
}

/** Every operation of the document, as `METHOD path` and the operation. */
export const operationsOf = (doc: OpenApiDocument): [string, Operation][] =>
  Object.entries(doc.paths).flatMap(([path, item]) => Object.entries(item).map(([method, op]): [string, Operation] => [`${method.toUpperCase()} ${path}`, op]));

/**
 * The scopes an operation's Bearer requirement names (the `memberToken` OAuth scheme), all needed, as
 * an RFC 6750 challenge lists them (space-separated), or undefined for one without a member's token.
 */
export const bearerScopeOf = (op: Operation): string | undefined => op.security?.find((s) => 'memberToken' in s)?.memberToken?.join(' ');

/** The role an operation's operator token needs (the `operatorToken` scheme's list: OpenAPI 3.1 section 4.8.30), or undefined. */
export const operatorRoleOf = (op: Operation): string | undefined => op.security?.find((s) => 'operatorToken' in s)?.operatorToken?.[0];

const ajv = new Ajv2020({ strict: true, allErrors: true });

/** The JSON Schema of an answer, its reference to the document's components followed. */
function resolved(doc: OpenApiDocument, schema: Schema): Schema {
  const ref = typeof schema.$ref === 'string' ? /^#\/components\/schemas\/(\w+)$/.exec(schema.$ref)?.[1] : undefined;
  if (ref === undefined) return schema;
  const target = doc.components.schemas[ref];
  if (!target) throw new Error(`${String(schema.$ref)} is not in the document`);
  return target;
}

/** Compiles a schema of the document as JSON Schema 2020-12 (strict: an unknown keyword is an error). */
export const compileSchema = (doc: OpenApiDocument, schema: Schema) => ajv.compile(resolved(doc, schema));

/**
 * What is wrong with an answer by the document: its status must be one the operation lists, its
 * media type one that answer lists, and a JSON body must hold to that answer's schema. [] when it
 * conforms.
 */
export function nonConformance(doc: OpenApiDocument, key: string, res: LightMyRequestResponse): string[] {
  const [method = '', path = ''] = key.split(' ');
  const op = doc.paths[path]?.[method.toLowerCase()];
  if (!op) return [`${key} is not in the document`];
  const answer = op.responses[String(res.statusCode)];
  if (!answer) return [`${key} answered ${res.statusCode}, which the document does not list: ${res.body.slice(0, 200)}`];
  if (!answer.content) return res.body === '' ? [] : [`${key} answered ${res.statusCode} with a body the document does not describe`];
  const media = String(res.headers['content-type'] ?? '').split(';')[0]!;
  const content = answer.content[media];
  if (!content) return [`${key} answered ${res.statusCode} as ${media}; the document lists ${Object.keys(answer.content).join(', ')}`];
  if (media !== 'application/json') return [];
  const validate = compileSchema(doc, content.schema);
  const body: unknown = res.json();
  return validate(body) ? [] : (validate.errors ?? []).map((e) => `${key} ${res.statusCode}: ${e.instancePath || '/'} ${e.message ?? ''} ${JSON.stringify(e.params)}`);
}
