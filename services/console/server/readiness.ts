import { existsSync } from 'node:fs';
import path from 'node:path';
import type { ServiceReadiness } from '@raffle/service-kit';

/** Ready once the built app is there to serve; the upstreams have their own probes. */
export function consoleReadiness(staticDir: string): ServiceReadiness {
  const indexFile = path.join(staticDir, 'index.html');
  return {
    checks: [{ name: 'app', decides: true, check: async () => (existsSync(indexFile) ? 'ok' : 'unavailable') }],
    documentation: {
      summary: 'Readiness probe: the built app',
      ready: 'Ready for traffic: the built app is there to serve (the APIs behind the proxies have probes of their own).',
      unavailable: 'Not ready: the built app (index.html) is missing; take the instance out of rotation.',
    },
  };
}
