// Kept in this file's declarations (preserve): a service checked against service-kit's declarations
// still sees what @fastify/swagger adds to Fastify's types (schema `security`, `app.swagger()`).
/// <reference types="@fastify/swagger" preserve="true" />
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { SHARED_SCHEMAS } from '@raffle/contracts';
import { Type, type TSchema } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { OpenApiDocumentJson } from '../openapi/document-types.js';
import { finishOpenApiDocument, type OpenApiFinish } from '../openapi/finish-document.js';
import { markOptionalBodyRoute } from '../openapi/optional-bodies.js';

export type OpenApiInfo = { title: string; description: string; version: string };

/** A service's OpenAPI document: what it says of itself, and what finishes the generated one. */
export type OpenApiDocumentOptions = OpenApiInfo & {
  securitySchemes: Record<string, unknown>;
  /** The OpenAPI 3.1 `webhooks` section, as is: its `$ref`s must already be `#/components/schemas/…`. */
  webhooks?: Record<string, unknown>;
  /** Components of this document beyond the shared ones, such as the schemas `webhooks` names. */
  schemas?: readonly TSchema[];
} & OpenApiFinish;

declare module 'fastify' {
  interface FastifySchema {
    /**
     * The error codes this route answers beyond those every route of its service can (see the
     * service's `errorCodes.commonCodes`); the OpenAPI document lists them per response status.
     */
    'x-error-codes'?: readonly string[];
  }
}

/**
 * OpenAPI 3.1 generated from the route schemas: the contracts' `$id` schemas become named
 * components, served as JSON at /openapi.json and rendered at /docs. The generated document is
 * finished (servers, tags, error codes, headers, examples, only the used schemas: see
 * openapi/finish-document.ts) before anyone sees it, so the served and the exported one agree.
 */
async function openApiPlugin(app: FastifyInstance, info: OpenApiDocumentOptions) {
  for (const schema of [...SHARED_SCHEMAS, ...(info.schemas ?? [])]) app.addSchema(schema);

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: info.title, description: info.description, version: info.version },
      components: { securitySchemes: info.securitySchemes as never },
      ...(info.webhooks ? { webhooks: info.webhooks as never } : {}),
    },
    transform: markOptionalBodyRoute,
    transformObject: (generated) =>
      'openapiObject' in generated
        ? (finishOpenApiDocument(generated.openapiObject as OpenApiDocumentJson, { servers: info.servers, tags: info.tags, errorCodes: info.errorCodes }) as never)
        : generated.swaggerObject,
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => String(json.$id ?? `def-${i}`) },
  });

  await app.register(swaggerUi, {
    routePrefix: '/docs',
    staticCSP: true,
    // "Try it out" calls the document's first server, the page's own origin: said outright, rather
    // than left to default-src, so tightening default-src cannot silently break it.
    transformStaticCSP: (csp) => `${csp} connect-src 'self';`,
  });

  app.get(
    '/openapi.json',
    {
      schema: {
        operationId: 'getOpenApiDocument',
        tags: ['Operations'],
        summary: 'This OpenAPI 3.1 document',
        response: { 200: Type.Object({}, { additionalProperties: true, description: 'This document, as JSON.', examples: [{ openapi: '3.1.0' }] }) },
      },
    },
    async (_request, reply) => reply.type('application/json; charset=utf-8').send(JSON.stringify(app.swagger())),
  );
}

export default fp(openApiPlugin, { name: 'openapi' });
