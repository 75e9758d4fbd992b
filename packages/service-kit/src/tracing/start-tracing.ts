import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, NodeTracerProvider, SimpleSpanProcessor, type SpanExporter } from '@opentelemetry/sdk-trace-node';
import { Type } from '@sinclair/typebox';

/** Every service reads the same variable: tracing is on when it is set, and off (no spans, no propagation) otherwise. */
export const TracingSettings = {
  /** OTLP/HTTP collector base URL (spans go to `<url>/v1/traces`), e.g. http://otel-collector:4318. */
  OTEL_EXPORTER_OTLP_ENDPOINT: Type.Optional(Type.String({ minLength: 1 })),
};

/**
 * Turns tracing on for this process: spans of `service` exported by OTLP/HTTP in batches (or to
 * `exporter` at once, for tests), the W3C `traceparent` propagator, and a context that follows
 * each request through its awaits. Returns what flushes and stops it; null when not configured,
 * and the OpenTelemetry API then stays a no-op that costs nothing.
 */
export function startTracing(service: string, options: { otlpEndpoint?: string; exporter?: SpanExporter }): (() => Promise<void>) | null {
  if (!options.otlpEndpoint && !options.exporter) return null;
  const processor = options.exporter
    ? new SimpleSpanProcessor(options.exporter)
    : new BatchSpanProcessor(new OTLPTraceExporter({ url: new URL('v1/traces', options.otlpEndpoint!.replace(/\/?$/, '/')).toString() }));
  const provider = new NodeTracerProvider({ resource: resourceFromAttributes({ 'service.name': service }), spanProcessors: [processor] });
  provider.register();
  return () => provider.shutdown();
}
