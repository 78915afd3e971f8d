import { context, propagation, trace } from '@opentelemetry/api';
import type { Running, TracingSettings } from './tracing.ts';

/**
 * The OpenTelemetry SDK, loaded only when tracing starts (lib/tracing.ts). Each package is imported
 * dynamically: the production bundle keeps npm packages external (scripts/build.ts), and a static
 * import there would load them at every start. A NodeTracerProvider (AsyncLocalStorage context, W3C
 * trace context propagation) batches the spans to the OTLP/HTTP JSON exporter; the undici
 * instrumentation traces `fetch` through diagnostics_channel, which an ESM bundle does not hinder.
 */
export async function startSdk(settings: TracingSettings): Promise<Running> {
  const [{ NodeTracerProvider }, { BatchSpanProcessor }, { OTLPTraceExporter }, { defaultResource, resourceFromAttributes }, { UndiciInstrumentation }, { W3CTraceContextPropagator }] =
    await Promise.all([
      import('@opentelemetry/sdk-trace-node'),
      import('@opentelemetry/sdk-trace-base'),
      import('@opentelemetry/exporter-trace-otlp-http'),
      import('@opentelemetry/resources'),
      import('@opentelemetry/instrumentation-undici'),
      import('@opentelemetry/core'),
    ]);
  const provider = new NodeTracerProvider({
    resource: defaultResource().merge(resourceFromAttributes({ 'service.name': settings.serviceName })),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url: settings.tracesUrl }))],
  });
  // The global provider and AsyncLocalStorage context manager, with the W3C trace context alone
  // (traceparent, tracestate): not the default's W3C baggage, which would carry whatever a caller on
  // the internet put in its `baggage` header on to Google's siteverify and the partners' endpoints.
  provider.register({ propagator: new W3CTraceContextPropagator() });
  const undici = new UndiciInstrumentation();
  undici.setTracerProvider(provider);
  undici.enable();
  return {
    forceFlush: () => provider.forceFlush(),
    shutdown: async () => {
      undici.disable();
      // Flushes the batch not yet sent, then leaves the API's globals free for a later start (tests).
      await provider.shutdown();
      trace.disable();
      context.disable();
      propagation.disable();
    },
  };
}
