import './fastify-decorations.js';

export { default as databasePlugin, type DatabasePluginOptions } from './plugins/database.js';
export { default as healthPlugin } from './plugins/health.js';
export { default as metricsPlugin } from './plugins/metrics.js';
export { default as natsPlugin, type NatsHandle } from './plugins/nats.js';
export { default as notFoundPlugin, type UnmatchedBody } from './plugins/not-found.js';
export { default as openApiPlugin, type OpenApiInfo } from './plugins/openapi.js';
export { default as requestIdPlugin, requestIdOf } from './plugins/request-id.js';
export { loggerOptions, REDACTED_PATHS, type LoggerOptions } from './logger.js';
export { ConfigError, readConfig } from './config.js';
export { serve } from './serve.js';
export { createClientErrorHandler, type ClientErrorBody, type ParserFailure } from './client-error.js';
export { managementErrorBody } from './management-error-body.js';
