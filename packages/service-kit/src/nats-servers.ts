/**
 * NATS_URL as the services read it: one server URL, or several separated by commas (the nodes of
 * a cluster). The client tries them in turn at start and on every reconnect, so a service whose
 * node dies moves to another without waiting for the cluster to tell it the others exist.
 */
export function natsServers(natsUrl: string): string[] {
  const servers = natsUrl.split(',').map((s) => s.trim()).filter((s) => s.length > 0);
  if (servers.length === 0) throw new Error('NATS_URL names no server');
  return servers;
}
