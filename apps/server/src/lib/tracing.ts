import { context, propagation, SpanKind, SpanStatusCode, trace, type Attributes, type Span } from '@opentelemetry/api';
import type { LogEvent } from 'kysely';

/*
 * OpenTelemetry tracing (docs/operations.md "Tracing"), off unless OTEL_EXPORTER_OTLP_ENDPOINT is set.
 * Only the API (@opentelemetry/api, a few kilobytes without side effects) is imported here; the SDK is
 * loaded by tracing-sdk.ts when tracing starts, so that a node without tracing never loads it. The
 * assembly registers the request hook, the log mixin and the query log only when tracing is on;
 * `tracedCall`, on a port's path either way, costs one check of `active` when it is off.
 */

/** The instrumentation scope of the service's own spans. */
export const TRACER_NAME = 'member-sso';

export interface TracingSettings {
  /** OTEL_EXPORTER_OTLP_ENDPOINT plus `v1/traces`, as the OTLP exporter specification builds a signal's URL from the generic endpoint. */
  tracesUrl: string;
  /** OTEL_SERVICE_NAME: the resource's `service.name`. */
  serviceName: string;
}

export interface Running {
  forceFlush(): Promise<void>;
  shutdown(): Promise<void>;
}

/** The process's tracing, once started: OpenTelemetry's provider is process-wide, so one at a time. */
let active: Running | undefined;

export const tracingOn = (): boolean => active !== undefined;

/**
 * Starts tracing for this process: the SDK's provider, exporter and the outgoing fetch calls'
 * instrumentation (tracing-sdk.ts). Answers the function that stops it again, which flushes the
 * spans not yet sent. The provider is global: a start while another runs (an app whose build failed
 * before its close could stop it) stops that one first, whose own stop then does nothing.
 */
export async function startTracing(settings: TracingSettings): Promise<() => Promise<void>> {
  const earlier = active;
  active = undefined;
  await earlier?.shutdown();
  const { startSdk } = await import('./tracing-sdk.ts');
  const running = await startSdk(settings);
  active = running;
  return async () => {
    if (active !== running) return;
    active = undefined;
    await running.shutdown();
  };
}

/** Sends the spans ended so far (the tests' way to wait for an export, rather than sleeping). */
export const flushTraces = async (): Promise<void> => active?.forceFlush();

const tracer = () => trace.getTracer(TRACER_NAME);

/**
 * pino's `mixin` (app.ts), registered only when tracing is on: the active span's trace and span ids
 * on every log line written inside a traced request or query.
 */
export function traceLogFields(): Record<string, string> {
  const span = trace.getSpan(context.active());
  if (!span) return {};
  const { traceId, spanId } = span.spanContext();
  return { trace_id: traceId, span_id: spanId };
}

/** The database systems' names in OpenTelemetry's semantic conventions (`db.system`). */
const DB_SYSTEM = { sqlite: 'sqlite', postgres: 'postgresql' } as const;

/**
 * Kysely's `log` hook (db/database.ts, when tracing is on): each query, after it ran, a CLIENT span
 * `db.query` in the caller's context, timed by Kysely's own measure. Only the SQL text is recorded,
 * its `?`/`$n` placeholders unfilled: never a parameter's value. A query outside any span (the client
 * registry's polling every few seconds, the hourly purge, the outbox) is not traced: each would be a
 * trace of its own.
 */
export function queryLog(dialect: keyof typeof DB_SYSTEM): (event: LogEvent) => void {
  const system = DB_SYSTEM[dialect];
  return (event) => {
    if (!trace.getSpan(context.active())) return;
    const end = performance.timeOrigin + performance.now();
    const span = tracer().startSpan('db.query', {
      kind: SpanKind.CLIENT,
      startTime: end - event.queryDurationMillis,
      attributes: { 'db.system': system, 'db.query.text': event.query.sql },
    });
    if (event.level === 'error') failed(span, event.error);
    span.end(end);
  };
}

/**
 * An outgoing call not made with `fetch` (whose calls the undici instrumentation traces): `call`
 * runs inside a CLIENT span and gets the headers that carry its context (W3C `traceparent`). With
 * tracing off it runs at once with no headers.
 */
export async function tracedCall<T>(name: string, attributes: Attributes, call: (headers: Record<string, string>) => Promise<T>): Promise<T> {
  if (!active) return call({});
  const span = tracer().startSpan(name, { kind: SpanKind.CLIENT, attributes });
  const spanContext = trace.setSpan(context.active(), span);
  const headers: Record<string, string> = {};
  propagation.inject(spanContext, headers);
  try {
    return await context.with(spanContext, () => call(headers));
  } catch (err) {
    failed(span, err);
    throw err;
  } finally {
    span.end();
  }
}

/** Marks a span failed by `err`. */
function failed(span: Span, err: unknown): void {
  span.setAttribute('error.type', err instanceof Error ? err.name : 'Error');
  span.setStatus({ code: SpanStatusCode.ERROR });
}
