import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route's body takes only optional properties, so the body may be omitted: no body, or
     * an empty one labelled `application/json` (what `curl -X POST -H 'content-type:
     * application/json'` sends), stands for `{}`. The OpenAPI document marks it not required.
     */
    optionalBody?: boolean;
  }
}

const hasOptionalBody = (request: FastifyRequest) => request.routeOptions.config.optionalBody === true;

/** Only whitespace: JSON.parse refuses it, but nothing was meant by it either. */
const isBlank = (text: string) => text.trim() === '';

/**
 * JSON bodies are parsed as Fastify does, except that a blank one is no body on a route whose
 * body is optional; elsewhere it stays 400 MALFORMED_JSON, as does any non-blank malformed body.
 * A missing body then stands for `{}`, so the route's schema still checks it and its handler
 * always reads an object.
 */
async function optionalBodyPlugin(app: FastifyInstance) {
  const { onProtoPoisoning = 'error', onConstructorPoisoning = 'error' } = app.initialConfig;
  const parseJson = app.getDefaultJsonParser(onProtoPoisoning, onConstructorPoisoning);
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body as string;
    if (hasOptionalBody(request) && isBlank(text)) return done(null, undefined);
    return parseJson(request, text, done);
  });

  app.addHook('preValidation', async (request) => {
    if (request.body === undefined && hasOptionalBody(request)) request.body = {};
  });
}

export default fp(optionalBodyPlugin, { name: 'optional-body' });
