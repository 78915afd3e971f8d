import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as client from 'openid-client';
import type { AddressInfo } from 'node:net';
import { context, trace } from '@opentelemetry/api';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { loadConfig, REPO_ROOT } from '../config.ts';
import { flushTraces, startTracing, tracingOn } from '../lib/tracing.ts';
import type { Dialect } from '../db/database.ts';
import { testAppEnv } from '../test-support/test-app.ts';
import { eventually } from '../test-support/eventually.ts';
import { freePort } from '../test-support/listening-app.ts';
import { relyingParty, signIn } from '../test-support/oidc-kit.ts';
import { SPA_CLIENT_ID } from '../test-support/oauth-client.ts';
import { createTestDb, DIALECTS, type TestDb } from '../test-support/test-db.ts';
import { registerTracing } from './tracing.ts';

/*
 * OpenTelemetry tracing (docs/operations.md "Tracing"), end to end: a local OTLP/HTTP receiver gets
 * the exported spans, and stands in for reCAPTCHA's siteverify, a partner's back-channel logout
 * endpoint and a fetched URL to show the outgoing calls' traceparent. The global provider is
 * process-wide: every app with tracing on is in this file, one at a time, each stopping it on close.
 */

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  status?: { code?: number };
  attributes: { key: string; value: Record<string, unknown> }[];
}

const SERVER = 2;
const CLIENT = 3;
const ERROR = 2;
const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT_SPAN_ID = '00f067aa0ba902b7';
const TRACEPARENT = `00-${TRACE_ID}-${PARENT_SPAN_ID}-01`;
const PASSWORD = 'Demo1234';
const MEMBER = 'demo.card@example.com';

/** An attribute's value, whichever OTLP/JSON type it carries. */
const attr = (span: OtlpSpan, key: string) => {
  const value = span.attributes.find((a) => a.key === key)?.value;
  return value === undefined ? undefined : Object.values(value)[0];
};

/** The receiver: OTLP/HTTP's POST /v1/traces, and any other POST recorded with its headers and answered as siteverify. */
function receiver() {
  const spans: OtlpSpan[] = [];
  const resources: unknown[] = [];
  const calls: { url: string; headers: IncomingHttpHeaders }[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.url === '/v1/traces') {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { resourceSpans: { resource: unknown; scopeSpans: { spans: OtlpSpan[] }[] }[] };
        for (const r of body.resourceSpans) {
          resources.push(r.resource);
          for (const s of r.scopeSpans) spans.push(...s.spans);
        }
      } else calls.push({ url: req.url ?? '', headers: req.headers });
      res.writeHead(200, { 'content-type': 'application/json' }).end(req.url === '/v1/traces' ? '{}' : JSON.stringify({ success: true }));
    });
  });
  return {
    spans,
    resources,
    calls,
    url: () => `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    start: () => new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve)),
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The app on a fresh database (its own connection, opened by buildApp, so that tracing sees its queries), its log kept. */
async function tracedApp(dialect: Dialect, env: Record<string, string>) {
  const testDb: TestDb = await createTestDb(dialect);
  const lines: Record<string, unknown>[] = [];
  const logStream = { write: (line: string) => void lines.push(...line.split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>)) };
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const config = loadConfig({ ...testAppEnv(testDb.url), PUBLIC_ORIGIN: origin, RECAPTCHA_SECRET: 'test-only-recaptcha-secret', ...env });
  const app = await buildApp(config, { logStream });
  await app.listen({ port, host: '127.0.0.1' });
  return { app, origin, lines, close: async () => (await app.close(), await testDb.drop()) };
}

/**
 * A request over a real socket, whose body is read outside the request's async chain, unlike
 * inject()'s; through node:http, which no instrumentation touches (a traced `fetch` would add a
 * traceparent of its own).
 */
function send(url: string, p: { method?: string; headers?: Record<string, string>; body?: string } = {}) {
  return new Promise<{ statusCode: number; headers: IncomingHttpHeaders }>((resolve, reject) => {
    const req = request(url, { method: p.method ?? 'GET', headers: p.headers }, (res) => {
      res.resume();
      res.on('end', () => resolve({ statusCode: res.statusCode ?? 0, headers: res.headers }));
    });
    req.on('error', reject);
    // Headers first, the body a moment later: it arrives in a socket event of its own.
    req.flushHeaders();
    setTimeout(() => req.end(p.body), 20);
  });
}

/** The login check (SPEC.md section 7): a reCAPTCHA verification and the member's queries. */
const login = (t: { origin: string }, headers: Record<string, string>) =>
  send(`${t.origin}/api/auth/login?trace=query-value`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: t.origin, ...headers },
    body: JSON.stringify({ client_id: SPA_CLIENT_ID, id: MEMBER, password: PASSWORD, recaptcha_token: 'token-of-the-form' }),
  });

/** The clients file with SIAP004's back-channel logout endpoint at `uri`. */
function clientsWithBackchannel(uri: string): string {
  const registry = JSON.parse(readFileSync(`${REPO_ROOT}config/clients.json`, 'utf8')) as { client_id: string }[];
  const file = join(mkdtempSync(join(tmpdir(), 'sso-tracing-')), 'clients.json');
  writeFileSync(file, JSON.stringify(registry.map((c) => (c.client_id === 'SIAP004' ? { ...c, backchannel_logout_uri: uri } : c))));
  return file;
}

const r = receiver();
beforeAll(r.start);
afterAll(r.stop);

/** A test's own spans and calls: those of the tests before it sent first, then forgotten. */
async function fresh(): Promise<void> {
  await flushTraces();
  r.spans.length = 0;
  r.calls.length = 0;
}

describe.each(DIALECTS)('tracing on (%s)', (dialect) => {
  let t: Awaited<ReturnType<typeof tracedApp>>;
  beforeAll(async () => {
    t = await tracedApp(dialect, {
      OTEL_EXPORTER_OTLP_ENDPOINT: `${r.url()}/`,
      OTEL_SERVICE_NAME: 'sso-under-test',
      RECAPTCHA_VERIFY_URL: `${r.url()}/siteverify`,
      CLIENTS_FILE: clientsWithBackchannel(`${r.url()}/backchannel`),
    });
  });
  afterAll(async () => {
    await t.close();
    expect(tracingOn()).toBe(false);
  });

  it('continues the incoming trace: the server span, its queries and its outgoing call, and the trace id on its log lines', async () => {
    await fresh();
    t.lines.length = 0;
    const res = await login(t, { traceparent: TRACEPARENT, 'x-request-id': 'lb-request-1' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-request-id']).toBe('lb-request-1');
    await flushTraces();

    const server = r.spans.find((s) => s.kind === SERVER && s.traceId === TRACE_ID);
    expect(server).toMatchObject({ name: 'POST /api/auth/login', parentSpanId: PARENT_SPAN_ID });
    expect(server?.spanId).toMatch(/^[0-9a-f]{16}$/);
    expect(attr(server!, 'http.request.method')).toBe('POST');
    expect(attr(server!, 'http.route')).toBe('/api/auth/login');
    expect(attr(server!, 'url.path')).toBe('/api/auth/login');
    expect(attr(server!, 'http.response.status_code')).toBe(200);
    expect(attr(server!, 'request.id')).toBe('lb-request-1');
    expect(server?.status?.code ?? 0).not.toBe(ERROR);
    expect(JSON.stringify(r.resources)).toContain('sso-under-test');

    // The member's queries, read after the body was parsed, are children of the request's span.
    const queries = r.spans.filter((s) => s.name === 'db.query');
    expect(queries.length).toBeGreaterThan(1);
    for (const q of queries) {
      expect(q).toMatchObject({ traceId: TRACE_ID, parentSpanId: server?.spanId, kind: CLIENT });
      expect(attr(q, 'db.system')).toBe(dialect === 'sqlite' ? 'sqlite' : 'postgresql');
    }
    expect(queries.some((q) => /\busers\b/.test(String(attr(q, 'db.query.text'))))).toBe(true);

    // The reCAPTCHA verification: a client span of the request's, whose context the siteverify call carries.
    const verify = r.spans.find((s) => s.kind === CLIENT && s.name === 'POST');
    expect(verify).toMatchObject({ traceId: TRACE_ID, parentSpanId: server?.spanId });
    expect(attr(verify!, 'url.full')).toBe(`${r.url()}/siteverify`);
    expect(r.calls.map((c) => [c.url, c.headers.traceparent])).toEqual([['/siteverify', `00-${TRACE_ID}-${verify?.spanId}-01`]]);

    // No parameter value, secret or query string in any span.
    const exported = JSON.stringify(r.spans);
    for (const secret of [PASSWORD, MEMBER, 'token-of-the-form', 'test-only-recaptcha-secret', 'query-value']) expect(exported).not.toContain(secret);

    const line = t.lines.find((l) => l.msg === 'request completed');
    expect(line).toMatchObject({ reqId: 'lb-request-1', trace_id: TRACE_ID, span_id: server?.spanId });
  });

  it('carries the logout request\'s trace to the partner\'s back-channel logout endpoint (fetch, the undici instrumentation)', async () => {
    const config = await relyingParty(t.origin, 'SIAP004');
    const { tokens } = await signIn(config, { origin: t.origin, scope: 'openid' });
    await fresh();
    const res = await send(client.buildEndSessionUrl(config, { id_token_hint: tokens.id_token! }).href, {
      headers: { traceparent: TRACEPARENT, baggage: 'caller.secret=passed-on' },
    });
    expect(res.statusCode).toBeLessThan(400);
    await eventually(() => expect(r.calls.map((c) => c.url)).toContain('/backchannel'));
    const delivery = r.calls.find((c) => c.url === '/backchannel');
    // The delivery's own span (a child within the logout request's trace), not the caller's.
    expect(delivery?.headers.traceparent).toMatch(new RegExp(`^00-${TRACE_ID}-[0-9a-f]{16}-01$`));
    expect(delivery?.headers.traceparent).not.toContain(PARENT_SPAN_ID);
    // The trace context alone is propagated: a caller's W3C baggage never reaches a partner.
    expect(delivery?.headers.baggage).toBeUndefined();
  });

  it('starts a new trace when the traceparent is invalid, and leaves the health probes untraced', async () => {
    await fresh();
    for (const traceparent of ['00-00000000000000000000000000000000-00f067aa0ba902b7-01', `00-${TRACE_ID}-${PARENT_SPAN_ID}`, 'garbage']) {
      const res = await t.app.inject({ method: 'GET', url: '/api/openapi.json', headers: { traceparent } });
      expect(res.statusCode).toBe(200);
    }
    for (const url of ['/api/health/live', '/api/health/ready', '/api/health']) {
      expect((await t.app.inject({ method: 'GET', url, headers: { traceparent: TRACEPARENT } })).statusCode).toBe(200);
    }
    await flushTraces();
    const servers = r.spans.filter((s) => s.kind === SERVER);
    expect(servers).toHaveLength(3);
    for (const s of servers) {
      expect(s.traceId).toMatch(/^[0-9a-f]{32}$/);
      expect(s.traceId).not.toBe(TRACE_ID);
      expect(s.traceId).not.toMatch(/^0+$/);
      expect(s.parentSpanId ?? '').toBe('');
    }
    expect(new Set(servers.map((s) => s.traceId)).size).toBe(3);
  });

  it('sends traceparent on fetch calls (the undici instrumentation)', async () => {
    await fresh();
    const span = trace.getTracer('test').startSpan('caller');
    await context.with(trace.setSpan(context.active(), span), async () => {
      const res = await fetch(`${r.url()}/fetched`, { method: 'POST', body: 'x' });
      await res.body?.cancel();
    });
    span.end();
    expect(r.calls[0]?.headers.traceparent).toMatch(new RegExp(`^00-${span.spanContext().traceId}-[0-9a-f]{16}-01$`));
  });

  it('marks a 5xx answer\'s span failed, a 4xx\'s not, and names a request without a route by its method', async () => {
    await fresh();
    const bare = Fastify();
    registerTracing(bare);
    bare.get('/boom/:id', async () => {
      throw new Error('boom');
    });
    bare.get('/refused', async (_request, reply) => reply.code(403).send());
    await bare.inject({ method: 'GET', url: '/boom/7?x=1' });
    await bare.inject({ method: 'GET', url: '/refused' });
    await bare.inject({ method: 'GET', url: '/nowhere' });
    await bare.close();
    await flushTraces();
    const [boom, refused, nowhere] = r.spans.filter((s) => s.kind === SERVER);
    expect(boom).toMatchObject({ name: 'GET /boom/:id', status: { code: ERROR } });
    expect(attr(boom!, 'url.path')).toBe('/boom/7');
    expect(attr(boom!, 'error.type')).toBe('500');
    expect(refused?.status?.code ?? 0).not.toBe(ERROR);
    expect(attr(refused!, 'http.response.status_code')).toBe(403);
    expect(nowhere?.name).toBe('GET');
    expect(attr(nowhere!, 'http.route')).toBeUndefined();
  });
});

describe('tracing off (no OTEL_EXPORTER_OTLP_ENDPOINT)', () => {
  let t: Awaited<ReturnType<typeof tracedApp>>;
  beforeAll(async () => {
    t = await tracedApp('sqlite', { RECAPTCHA_VERIFY_URL: `${r.url()}/siteverify` });
  });
  afterAll(async () => t.close());

  it('exports nothing, sends no traceparent, writes no trace_id, and still keeps the X-Request-Id', async () => {
    await fresh();
    t.lines.length = 0;
    expect(tracingOn()).toBe(false);
    const res = await login(t, { traceparent: TRACEPARENT, 'x-request-id': 'lb-request-2' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-request-id']).toBe('lb-request-2');
    await flushTraces();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(r.spans).toEqual([]);
    expect(r.calls.map((c) => [c.url, c.headers.traceparent])).toEqual([['/siteverify', undefined]]);
    const line = t.lines.find((l) => l.msg === 'request completed');
    expect(line).toMatchObject({ reqId: 'lb-request-2' });
    expect(line).not.toHaveProperty('trace_id');
    expect(t.lines.some((l) => 'trace_id' in l || 'span_id' in l)).toBe(false);
  });
});

describe('startTracing', () => {
  it('takes over from a tracing left started (a build that failed before its close), whose stop then does nothing', async () => {
    const settings = { tracesUrl: `${r.url()}/v1/traces`, serviceName: 'sso-under-test' };
    const stopFirst = await startTracing(settings);
    const stopSecond = await startTracing(settings);
    await stopFirst();
    expect(tracingOn()).toBe(true);
    await fresh();
    trace.getTracer('test').startSpan('after-takeover').end();
    await flushTraces();
    expect(r.spans.map((s) => s.name)).toEqual(['after-takeover']);
    await stopSecond();
    expect(tracingOn()).toBe(false);
  });
});
