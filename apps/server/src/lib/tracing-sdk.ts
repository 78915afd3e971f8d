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
  const [{ NodeTracerProvider }, { BatchSpanProcessor }, { OTLPTraceExporter }, { defaultResource, resourceFromAttributes }, { UndiciInstrumentation }] =
    await Promise.all([
      import('@opentelemetry/sdk-trace-node'),
      import('@opentelemetry/sdk-trace-base'),
      import('@opentelemetry/exporter-trace-otlp-http'),
      import('@opentelemetry/resources'),
      import('@opentelemetry/instrumentation-undici'),
    ]);
  const provider = new NodeTracerProvider({
    resource: defaultResource().merge(resourceFromAttributes({ 'service.name': settings.serviceName })),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url: settings.tracesUrl }))],
  });
  // The global provider, AsyncLocalStorage context manager and W3C trace context (and baggage) propagator.
  provider.register();
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
