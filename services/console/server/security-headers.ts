import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/**
 * Every answer, app and proxy alike. The CSP allows only this origin's scripts (Vite emits no
 * inline script) and no framing. `no-referrer` keeps URLs out of Referer headers; the sign-in
 * token travels in the fragment, which browsers never send anyway.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  // React sets style attributes (e.g. dialog positioning); no stylesheet comes from elsewhere.
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

async function securityHeaders(app: FastifyInstance) {
  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header('content-security-policy', CONTENT_SECURITY_POLICY);
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'no-referrer');
    reply.header('x-frame-options', 'DENY');
    reply.header('cross-origin-opener-policy', 'same-origin');
    return payload;
  });
}

export default fp(securityHeaders, { name: 'security-headers' });
