import type { FastifyRequest } from 'fastify';

/**
 * The `X-Forwarded-For` the APIs get: the visitor's address as this server saw it, so their per-IP
 * rules (the duplicate-address check on entries, the public per-IP budget) count each visitor on
 * their own instead of every visitor as this server (issue 23). A header the visitor sent is only
 * kept when TRUST_PROXY says a proxy of ours stands in front (it wrote that header); otherwise it
 * is the visitor's own claim and is replaced. The APIs trust the header when their own TRUST_PROXY
 * is on, which is right only where nothing but this server (or the ingress) can reach them.
 */
export function forwardedForOf(request: FastifyRequest, trustProxy: boolean): string {
  const peer = request.socket.remoteAddress ?? request.ip;
  const sent = request.headers['x-forwarded-for'];
  const chain = Array.isArray(sent) ? sent.join(', ') : sent;
  return trustProxy && chain ? `${chain}, ${peer}` : peer;
}
