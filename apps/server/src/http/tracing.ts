import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Span } from '@opentelemetry/api';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { TRACER_NAME } from '../lib/tracing.ts';
import { HEALTH_PATHS } from './health.ts';

/**
 * Each request as a SERVER span (docs/operations.md "Tracing"), registered by the assembly only when
 * tracing is on. The incoming W3C `traceparent`/`tracestate` is the parent (an invalid one is ignored
 * by the propagator: a new trace); the name is `METHOD /route/template`, OpenTelemetry's HTTP
 * semantic conventions. The rest of the request (the other hooks, the body's parsing, the handler)
 * runs in the span's context, entered when this hook hands on: Fastify 5 runs a body's parser in an
 * AsyncResource of the request's own (fastify/lib/content-type-parser.js), so the context survives the body
 * being read in the socket's later events, which @fastify/request-context's preValidation rebinding
 * was made for (the tests send the body apart from the headers, over a socket). The health probes,
 * every few seconds from each balancer and orchestrator, are not traced.
 */
export function registerTracing(app: FastifyInstance): void {
  const tracer = trace.getTracer(TRACER_NAME);
  const traced = new WeakMap<FastifyRequest, Span>();

  app.addHook('onRequest', (request, _reply, done) => {
    const path = pathOf(request.url);
    if (HEALTH_PATHS.has(path)) return done();
    const parent = propagation.extract(ROOT_CONTEXT, request.headers);
    const route = request.routeOptions.url;
    const span = tracer.startSpan(
      route ? `${request.method} ${route}` : request.method,
      {
        kind: SpanKind.SERVER,
        attributes: {
          'http.request.method': request.method,
          ...(route ? { 'http.route': route } : {}),
          // Without the query, where one-time tokens and codes travel (http/log-serializers.ts).
          'url.path': path,
          'request.id': request.id,
        },
      },
      parent,
    );
    traced.set(request, span);
    context.with(trace.setSpan(parent, span), done);
  });

  const end = (request: FastifyRequest, status: number | undefined) => {
    const span = traced.get(request);
    if (!span) return;
    traced.delete(request);
    if (status !== undefined) {
      span.setAttribute('http.response.status_code', status);
      // A server span fails on a 5xx only: a 4xx is the client's (the semantic conventions' rule).
      if (status >= 500) span.setAttributes({ 'error.type': String(status) }).setStatus({ code: SpanStatusCode.ERROR });
    }
    span.end();
  };
  app.addHook('onResponse', (request, reply, done) => {
    end(request, reply.statusCode);
    done();
  });
  // The client went away before the answer: the span ends without a status code.
  app.addHook('onRequestAbort', (request, done) => {
    end(request, undefined);
    done();
  });
}

/** The URL's path, less its query. */
const pathOf = (url: string) => {
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
};
