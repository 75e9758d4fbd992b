import closeWithGrace from 'close-with-grace';
import type { FastifyInstance } from 'fastify';
import { ConfigError } from './config.js';
import { startTracing } from './tracing/start-tracing.js';

/**
 * A service's whole `server.ts`: read the config (exit 2 with the reasons when it is invalid),
 * start tracing when OTEL_EXPORTER_OTLP_ENDPOINT is set, build the app, listen; on a signal, finish in-flight work (new requests get 503) and exit;
 * a second signal or `graceMs` (10 s unless the service needs longer to drain) forces the exit.
 */
export async function serve<C extends { HOST: string; PORT: number; OTEL_EXPORTER_OTLP_ENDPOINT?: string }>(
  loadConfig: (env: Record<string, string | undefined>) => C,
  buildApp: (config: C) => Promise<FastifyInstance>,
  options: { service: string; graceMs?: (config: C) => number },
): Promise<void> {
  let config: C;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(error.message);
    process.exit(2);
  }
  const stopTracing = startTracing(options.service, { otlpEndpoint: config.OTEL_EXPORTER_OTLP_ENDPOINT });
  const app = await buildApp(config);
  closeWithGrace({ delay: options.graceMs?.(config) ?? 10_000 }, async ({ signal, err }) => {
    if (err) app.log.error({ err }, 'shutting down after an error');
    else app.log.info({ signal }, 'shutting down');
    await app.close();
    // The spans of the last requests go out before the process ends.
    await stopTracing?.().catch(() => undefined);
  });
  await app.listen({ host: config.HOST, port: config.PORT });
}
