import type { FastifyRequest } from 'fastify';

/**
 * The `X-Forwarded-For` the APIs get: the visitor's address as this server saw it, so their per-IP
 * rules (the duplicate-address check on entries, the public per-IP budget) count each visitor on
 * their own instead of every visitor as this server (issue 23). A chain the visitor's peer sent is
 * kept, with the peer appended, only when TRUST_PROXY trusts that peer (a proxy of ours wrote it):
 * Fastify, given the rule, lists in `request.ips` the peer and the addresses it vouches for.
 * Otherwise the header is the visitor's own claim and is replaced. The APIs apply the same rule
 * (trust-proxy.ts in the service kit): trusting this server's address, they take the last address
 * it wrote.
 */
export function forwardedForOf(request: FastifyRequest): string {
  const peer = request.socket.remoteAddress ?? request.ip;
  const sent = request.headers['x-forwarded-for'];
  const chain = Array.isArray(sent) ? sent.join(', ') : sent;
  const peerTrusted = (request.ips?.length ?? 0) > 1;
  return peerTrusted && chain ? `${chain}, ${peer}` : peer;
}
