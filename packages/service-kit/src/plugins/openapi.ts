import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { SHARED_SCHEMAS } from '@raffle/contracts';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

export type OpenApiInfo = { title: string; description: string; version: string };

/**
 * OpenAPI 3.1 generated from the route schemas: the contracts' `$id` schemas become named
 * components, served as JSON at /openapi.json and rendered at /docs.
 */
async function openApiPlugin(app: FastifyInstance, info: OpenApiInfo & { securitySchemes: Record<string, unknown> }) {
  for (const schema of SHARED_SCHEMAS) app.addSchema(schema);

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: info.title, description: info.description, version: info.version },
      components: { securitySchemes: info.securitySchemes as never },
    },
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => String(json.$id ?? `def-${i}`) },
  });

  await app.register(swaggerUi, { routePrefix: '/docs', staticCSP: true });

  app.get(
    '/openapi.json',
    {
      schema: {
        operationId: 'getOpenApiDocument',
        tags: ['Operations'],
        summary: 'This OpenAPI 3.1 document',
        response: { 200: Type.Object({}, { additionalProperties: true }) },
      },
    },
    async (_request, reply) => reply.type('application/json; charset=utf-8').send(JSON.stringify(app.swagger())),
  );
}

export default fp(openApiPlugin, { name: 'openapi' });
