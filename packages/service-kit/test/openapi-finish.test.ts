import { describe, expect, it } from 'vitest';
import type { OpenApiDocumentJson } from '../src/openapi/document-types.js';
import { finishOpenApiDocument, type OpenApiFinish } from '../src/openapi/finish-document.js';

/** A generated document in miniature: one secured operation, one public one, a webhook, and spare schemas. */
function generated(): OpenApiDocumentJson {
  const errorBody = { content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' } } }, description: 'Default Response' };
  return {
    openapi: '3.1.0',
    info: { title: 't', version: '1' },
    paths: {
      '/api/things/{raffleId}': {
        post: {
          operationId: 'touchThing',
          tags: ['Things'],
          'x-error-codes': ['THING_NOT_FOUND'],
          security: [{ bearer: [] }],
          parameters: [
            { in: 'path', name: 'raffleId', required: true, schema: { type: 'string' } },
            { in: 'header', name: 'Idempotency-Key', required: false, schema: { type: 'string' } },
          ],
          requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/ThingBody' } } } },
          responses: {
            '201': { description: 'Default Response', content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } } },
            '404': structuredClone(errorBody),
            '422': structuredClone(errorBody),
          },
        },
      },
      '/health': { get: { operationId: 'health', tags: ['Operations'], responses: { '200': { description: 'Up.' } } } },
    },
    webhooks: { 'thing.touched': { post: { tags: ['Things'], requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/ThingEvent' } } } } } } },
    components: {
      schemas: {
        ErrorBody: {
          type: 'object',
          required: ['statusCode', 'error', 'code', 'message', 'requestId', 'timestamp', 'path'],
          properties: {
            statusCode: { type: 'integer' },
            error: { type: 'string' },
            code: { type: 'string' },
            message: { type: 'string' },
            requestId: { type: 'string' },
            timestamp: { type: 'string', format: 'date-time' },
            path: { type: 'string' },
          },
        },
        Thing: { type: 'object', required: ['id', 'owner'], properties: { id: { type: 'string' }, owner: { $ref: '#/components/schemas/Owner' } } },
        Owner: { type: 'object', required: ['userId'], properties: { userId: { type: 'string' } } },
        ThingBody: { type: 'object', properties: { name: { type: 'string' } } },
        ThingEvent: { type: 'object', required: ['thingId'], properties: { thingId: { type: 'string' } } },
        Unused: { type: 'object' },
      },
    },
  };
}

const finish: OpenApiFinish = {
  servers: [{ url: 'http://localhost:3000', description: 'local' }],
  tags: [
    { name: 'Things', description: 'Things.' },
    { name: 'Operations', description: 'Probes.' },
    { name: 'Unused tag', description: 'Never used.' },
  ],
  errorCodes: {
    statusOf: { THING_NOT_FOUND: 404, VALIDATION_FAILED: 400, SERVICE_UNAVAILABLE: 503 },
    commonCodes: ({ path }) => (path.startsWith('/api/') ? ['VALIDATION_FAILED'] : []),
    carrier: 'code-field',
    errorBody: 'ErrorBody',
  },
};

describe('finishOpenApiDocument', () => {
  const document = finishOpenApiDocument(generated(), finish);
  const touch = document.paths['/api/things/{raffleId}']!.post!;

  it('keeps only the schemas the paths and webhooks reach, transitively', () => {
    expect(Object.keys(document.components.schemas!).sort()).toEqual(['ErrorBody', 'Owner', 'Thing', 'ThingBody', 'ThingEvent']);
  });

  it('narrows `code` to the operation codes of each status, and marks a status with none as reserved', () => {
    expect(touch['x-error-codes']).toEqual(['VALIDATION_FAILED', 'THING_NOT_FOUND']);
    expect(touch.responses['404'].content['application/json'].schema.allOf[1].properties.code.enum).toEqual(['THING_NOT_FOUND']);
    expect(touch.responses['404']['x-error-codes']).toEqual(['THING_NOT_FOUND']);
    expect(touch.responses['422']['x-error-codes']).toEqual([]);
    expect(touch.responses['422'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/ErrorBody' });
    expect(touch.responses['422'].description).toMatch(/does not answer it/);
  });

  it('refuses a code the catalogue does not have', () => {
    const broken = generated();
    broken.paths['/api/things/{raffleId}']!.post!['x-error-codes'] = ['NO_SUCH_CODE'];
    expect(() => finishOpenApiDocument(broken, finish)).toThrow(/NO_SUCH_CODE/);
  });

  it('describes placeholder responses, adds X-Request-Id everywhere and Idempotent-Replayed where a key is taken', () => {
    expect(touch.responses['201'].description).toBe('Created: the new resource.');
    expect(touch.responses['404'].description).toMatch(/^The resource does not exist.*`code`: `THING_NOT_FOUND`\.$/);
    expect(touch.responses['201'].headers).toEqual({
      'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' },
      'Idempotent-Replayed': { $ref: '#/components/headers/Idempotent-Replayed' },
    });
    expect(document.paths['/health']!.get!.responses['200'].headers).toEqual({ 'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' } });
    expect(Object.keys(document.components.headers).sort()).toEqual(['Idempotent-Replayed', 'X-Request-Id']);
  });

  it('builds examples from field names: prefixed ids, the status and path of an error, the code of the status', () => {
    expect(touch.responses['201'].content['application/json'].example).toEqual({ id: 'text', owner: { userId: expect.stringMatching(/^usr_[0-9A-Z]{26}$/) } });
    expect(touch.parameters[0].example).toBe('raf_01JP6X3B8D1F4H7K9M2Q5S8V1Y');
    expect(touch.responses['404'].content['application/json'].example).toMatchObject({
      statusCode: 404,
      error: 'Not Found',
      code: 'THING_NOT_FOUND',
      path: '/api/things/raf_01JP6X3B8D1F4H7K9M2Q5S8V1Y',
    });
    expect(touch.requestBody.content['application/json'].example).toEqual({ name: 'Nebula Tools' });
  });

  it('lists servers (its own origin first, for /docs) and the used tags, and marks unsecured operations public', () => {
    expect(document.servers).toEqual([{ url: '/', description: expect.any(String) }, ...finish.servers]);
    expect(document.tags.map((t: { name: string }) => t.name)).toEqual(['Things', 'Operations']);
    expect(document.paths['/health']!.get!.security).toEqual([]);
    expect(touch.security).toEqual([{ bearer: [] }]);
    expect(document.webhooks['thing.touched'].post.security).toEqual([]);
  });

  it('leaves the generated document as it was', () => {
    const original = generated();
    finishOpenApiDocument(original, finish);
    expect(original).toEqual(generated());
  });
});
