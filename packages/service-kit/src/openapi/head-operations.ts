import type { OpenApiDocumentJson } from './document-types.js';

/**
 * A HEAD operation a route lists (`config.swagger.exposeHeadRoute`) is its GET without the body:
 * @fastify/swagger copies the GET whole, under `<operationId>-head`. Here it gets a name of its own
 * (`getX` → `headX`), says what it is, and its responses keep their status, description and
 * headers but no content, since a HEAD answer never has a body (RFC 9110 §9.3.2).
 */
export function documentHeadOperations(document: OpenApiDocumentJson) {
  for (const item of Object.values(document.paths)) {
    const head = item.head;
    if (!head) continue;
    const getId = String(head.operationId ?? '').replace(/-head$/, '');
    head.operationId = getId.startsWith('get') ? `head${getId.slice(3)}` : `${getId}Head`;
    head.summary = `${head.summary ?? 'The GET answer'} (HEAD: headers only)`;
    head.description = `The \`GET\` operation's status and headers (\`ETag\`, \`Cache-Control\`, \`RateLimit\`…) without its body, as caches and CDNs use to revalidate. ${getId ? `See \`${getId}\`.` : ''}`.trim();
    for (const response of Object.values<Record<string, unknown>>(head.responses ?? {})) delete response.content;
  }
}
