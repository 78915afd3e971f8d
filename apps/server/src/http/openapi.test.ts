import { readFileSync } from 'node:fs';
import { Validator } from '@seriousme/openapi-schema-validator';
import { API_CATALOGUE } from '@sso/contracts/api-catalogue';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../config.ts';
import { bearerScopeOf, compileSchema, operationsOf, operatorRoleOf, servedDocument } from '../test-support/openapi-kit.ts';
import { catchRegisteredRoutes } from '../test-support/registered-routes.ts';
import { TEST_ORIGIN, withTestApp } from '../test-support/test-app.ts';

/**
 * The OpenAPI document (http/openapi.ts) is generated from the route catalogue of the contracts
 * (packages/contracts/src/api-catalogue.ts) and cannot drift from the server: every route the app
 * registers under /api and /.well-known is in it, and nothing else; each operation names the scope
 * the route's guard demands and the error body it answers; and it is valid OpenAPI 3.1.
 */

const registered = catchRegisteredRoutes();
const CATALOGUE_FILE = 'packages/contracts/src/api-catalogue.ts';

/** The routes of the API, without Fastify's automatic HEAD twins of GET routes. */
const apiRoutes = () => [...registered.keys()].filter((key) => /^(?!HEAD )\w+ \/(api|\.well-known)\//.test(key));

describe('the OpenAPI document', () => {
  const t = withTestApp('sqlite');

  it('is served at GET /api/openapi.json: public, cacheable JSON', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['cache-control']).toBe('public, max-age=3600');
    expect(res.json()).toMatchObject({ openapi: '3.1.1', servers: [{ url: TEST_ORIGIN }] });
  });

  it('is valid OpenAPI 3.1, and every schema in it compiles as JSON Schema 2020-12', async () => {
    const doc = await servedDocument(t.app);
    const result = await new Validator().validate(doc as unknown as Record<string, unknown>);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    const schemas = JSON.stringify(doc).match(/"schema":/g) ?? [];
    expect(schemas.length).toBeGreaterThan(100);
    for (const [key, op] of operationsOf(doc)) {
      for (const answer of Object.values(op.responses)) {
        for (const { schema } of Object.values(answer.content ?? {})) expect(() => compileSchema(doc, schema), key).not.toThrow();
      }
    }
  });

  it('has every route the server registers under /api and /.well-known, and only those', () => {
    const served = apiRoutes();
    const catalogued = API_CATALOGUE.map((r) => `${r.method} ${r.path}`);
    expect(served.length).toBeGreaterThan(60);
    expect(new Set(catalogued).size, 'a route is catalogued twice').toBe(catalogued.length);
    expect(served.filter((key) => !catalogued.includes(key)), `routes without an entry in ${CATALOGUE_FILE}: add one each`).toEqual([]);
    expect(catalogued.filter((key) => !served.includes(key)), `entries of ${CATALOGUE_FILE} the server does not register`).toEqual([]);
  });

  it("names on each operation the scope the route's guard demands, and the error body the route answers", async () => {
    const doc = await servedDocument(t.app);
    const wrong: string[] = [];
    for (const [key, op] of operationsOf(doc)) {
      const declared = registered.get(key);
      const scope = declared?.scope === undefined ? undefined : [declared.scope].flat().join(' ');
      if (bearerScopeOf(op) !== scope) wrong.push(`${key}: the document says scope ${bearerScopeOf(op)}, the route declares ${scope}`);
      const oauthBodies = JSON.stringify(op.responses).includes('#/components/schemas/OAuthError');
      if (oauthBodies !== (declared?.oauth === true)) wrong.push(`${key}: the document says ${oauthBodies ? 'RFC 6749' : 'result-code'} errors, the route's config.oauth is ${declared?.oauth}`);
    }
    expect(wrong).toEqual([]);
    expect(operationsOf(doc).filter(([, op]) => bearerScopeOf(op)).length).toBeGreaterThan(40);
  });

  it('names on each operator operation the role its guard demands, and no member scope; the ceremonies need no token', async () => {
    const doc = await servedDocument(t.app);
    const operator = operationsOf(doc).filter(([key]) => key.startsWith('POST /api/admin/'));
    expect(operator.length).toBeGreaterThanOrEqual(9);
    const wrong: string[] = [];
    for (const [key, op] of operator) {
      const declared = registered.get(key)?.role;
      if (op['x-operator-role'] !== declared) wrong.push(`${key}: the document says ${op['x-operator-role']}, the route declares ${declared}`);
      const needed = declared === 'public' ? undefined : declared;
      if (operatorRoleOf(op) !== needed) wrong.push(`${key}: the security requirement names ${operatorRoleOf(op)}, the route declares ${declared}`);
      if (bearerScopeOf(op) !== undefined) wrong.push(`${key}: an operator operation names a member scope`);
      if (needed && !op.responses['403']) wrong.push(`${key}: no 403 for a member's token or a lesser role`);
    }
    expect(wrong).toEqual([]);
    expect(operator.map(([key, op]) => `${key} ${op['x-operator-role']}`)).toContain('POST /api/admin/operators/invite admin');
    expect(operator.map(([key, op]) => `${key} ${op['x-operator-role']}`)).toContain('POST /api/admin/login public');
  });

  it('holds no secret: no client secret, no key, no internal path', async () => {
    const text = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).body;
    const clients = JSON.parse(readFileSync(`${REPO_ROOT}config/clients.json`, 'utf8')) as { secret_sha256?: string }[];
    for (const digest of clients.flatMap((c) => (c.secret_sha256 ? [c.secret_sha256] : []))) expect(text).not.toContain(digest);
    expect(text).not.toMatch(/demo-secret|lookup|sqlite|node_modules|apps\/server|\.ts\b/i);
  });
});
