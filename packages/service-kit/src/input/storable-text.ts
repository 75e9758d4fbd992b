import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

/**
 * Where a request's text breaks the rule that every string must be storable as Postgres text:
 * no NUL (Postgres refuses it in text) and well-formed UTF-16 (a lone surrogate would be
 * replaced by U+FFFD on the way to the database, silently changing what was sent). Keys count
 * as much as values. Walks iteratively: a body may nest thousands of levels deep.
 */
export function findUnstorableText(value: unknown): { path: string; problem: string } | null {
  const pending: { value: unknown; path: string }[] = [{ value, path: '' }];
  while (pending.length > 0) {
    const item = pending.pop()!;
    if (typeof item.value === 'string') {
      const problem = textProblem(item.value);
      if (problem) return { path: item.path, problem };
    } else if (item.value !== null && typeof item.value === 'object') {
      for (const [key, child] of Object.entries(item.value)) {
        const keyProblem = textProblem(key);
        if (keyProblem) return { path: item.path, problem: `has a property name that ${keyProblem}` };
        pending.push({ value: child, path: `${item.path}/${key}` });
      }
    }
  }
  return null;
}

/** With the `u` flag a paired surrogate is one code point, so only a lone one is category Cs. */
const LONE_SURROGATE = /\p{Cs}/u;

function textProblem(text: string): string | null {
  if (text.includes('\u0000')) return 'must not contain NUL (\\u0000) characters';
  if (LONE_SURROGATE.test(text)) return 'must be well-formed Unicode (it contains a lone surrogate)';
  return null;
}

const PARTS = [
  ['params', (r: FastifyRequest) => r.params],
  ['querystring', (r: FastifyRequest) => r.query],
  ['body', (r: FastifyRequest) => r.body],
] as const;

/**
 * One input rule for every service, applied before schema validation. A failure is shaped as a
 * Fastify validation error, so each service's error handler answers it with its own 400 body
 * (and the data plane's `limit`/`cursor` rules still name INVALID_LIMIT / INVALID_CURSOR).
 */
async function storableTextPlugin(app: FastifyInstance) {
  app.addHook('preValidation', async (request) => {
    for (const [context, read] of PARTS) {
      const found = findUnstorableText(read(request));
      if (!found) continue;
      const error = Object.assign(new Error(`${context}${found.path.replaceAll('/', '.')} ${found.problem}`), {
        statusCode: 400,
        validationContext: context,
        validation: [{ keyword: 'storableText', instancePath: found.path, schemaPath: '#', params: {}, message: found.problem }],
      });
      throw error;
    }
  });
}

export default fp(storableTextPlugin, { name: 'storable-text' });
