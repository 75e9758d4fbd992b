import './fastify-decorations.js';

export { default as databasePlugin, type DatabasePluginOptions } from './plugins/database.js';
export { default as healthPlugin, type CheckState, type HealthOptions, type ReadinessCheck, type ReadinessDocumentation } from './plugins/health.js';
export { default as metricsPlugin } from './plugins/metrics.js';
export { default as natsPlugin, type NatsHandle } from './plugins/nats.js';
export { natsServers } from './nats-servers.js';
export { default as notFoundPlugin, type UnmatchedBody, type UnmatchedFallback } from './plugins/not-found.js';
export { default as openApiPlugin, type OpenApiDocumentOptions, type OpenApiInfo } from './plugins/openapi.js';
export type { OpenApiFinish, OpenApiServer, OpenApiTag } from './openapi/finish-document.js';
export type { ErrorCodeDocumentation } from './openapi/error-codes.js';
export type { Operation as OpenApiOperation } from './openapi/document-types.js';
export { default as requestIdPlugin, requestIdOf } from './plugins/request-id.js';
export { loggerOptions, REDACTED_PATHS, type LoggerOptions } from './logging/logger-options.js';
export { pathOf } from './request-path.js';
export { pathString } from './path-params.js';
export { serializeError } from './logging/error-serializer.js';
export { ConfigError, httpUrlProblem, readConfig } from './config.js';
export { TrustProxySetting, trustProxyRule, type TrustProxy } from './trust-proxy.js';
export { serve } from './serve.js';
export { startTracing, TracingSettings } from './tracing/start-tracing.js';
export { BeaconSettings, beaconOf, type Beacon, type BeaconConfig } from './beacon-settings.js';
export { ChainSettings, chainReaderFromConfig, type ChainConfig } from './chain-settings.js';
export {
  DEV_CONNECTION_REDIRECT_BASE_URL,
  DEV_CONNECTION_TOKEN_KEY,
  localSocialEnv,
  SocialSettings,
  socialConnectionsOf,
  type SocialConfig,
  type SocialConnections,
} from './social-settings.js';
export { default as chainReaderPlugin, type ChainReaderPluginOptions } from './plugins/chain-reader.js';
export { default as httpSpansPlugin } from './tracing/http-spans.js';
export { createClientErrorHandler, PARSER_FAILURE_CODES, type ClientErrorBody, type ParserFailure } from './client-error.js';
export { managementErrorBody } from './management-error-body.js';
export { default as rateLimitPlugin, type RateLimitBucket, type RateLimitPluginOptions, type RateLimitRefusal } from './rate-limit/plugin.js';
export { registerServiceRateLimits, type RateLimitStoreConfig, type ServiceRateLimits } from './rate-limit/service-rate-limits.js';
export { default as storableTextPlugin, findUnstorableText } from './input/storable-text.js';
export { default as optionalBodyPlugin } from './input/optional-body.js';
export { isStorableInstant, MAX_YEAR, MIN_YEAR, restrictDateTimesToStorableYears } from './input/storable-dates.js';
export { default as shutdownPlugin, type ShutdownBody, type ShutdownOptions } from './plugins/shutdown.js';
export { DatabasePoolSettings } from './database-pool-settings.js';
export { HttpServerSettings, httpServerOptions, limitConnections, type HttpServerConfig } from './http-server-settings.js';
export { unavailableResponse } from './unavailable-response.js';
export { sendRenderedJson } from './send-rendered-json.js';
export { createServiceApp, type ServiceAppOptions, type ServiceCapabilities, type ServiceConfig, type ServiceReadiness, type ServiceServerOptions } from './service-app.js';
export { default as errorHandlerPlugin } from './errors/error-handler.js';
export type { ErrorAnswer, Refusal, ServiceErrors } from './errors/service-errors.js';
export {
  default as idempotencyPlugin,
  heldIdempotencyOf,
  idempotencyErrorCodes,
  markIdempotencyCompleted,
  type IdempotencyPluginOptions,
} from './idempotency/plugin.js';
export { createIdempotencyStore, type HeldIdempotencyKey, type IdempotencyStore } from './idempotency/idempotency-store.js';
export { requestFingerprint } from './idempotency/request-fingerprint.js';
export { csvCell, csvLine } from './csv/csv-cell.js';
export { csvLines, csvStream, UTF8_BOM, type CsvColumns } from './csv/csv-stream.js';
export { csvAttachmentResponse, CSV_CONTENT_TYPE, CSV_FORMAT_DESCRIPTION, sendCsvAttachment, type CsvAttachment, type CsvAttachmentResponse } from './csv/csv-attachment.js';
