type Inject = (options: { method: 'GET'; url: string }) => Promise<{ statusCode: number }>;

/**
 * Waits until `connections` concurrent readiness probes all answer 200, so the pool holds that many
 * open connections before a campaign starts. On a cold pool the first queries wait for connections
 * to open, and on a loaded machine that can pass the pool's wait bound: a 503 that says "machine
 * busy", not "input mishandled", and would hide the findings a fuzz run is for.
 */
export async function warmUpConnections(app: { inject: Inject }, options: { connections: number; timeoutMs?: number }): Promise<void> {
  const deadline = Date.now() + (options.timeoutMs ?? 20_000);
  for (;;) {
    const probes = await Promise.all(Array.from({ length: options.connections }, () => app.inject({ method: 'GET', url: '/health/ready' })));
    if (probes.every((probe) => probe.statusCode === 200)) return;
    if (Date.now() > deadline) throw new Error('fuzz warm-up: the service never reported ready');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
