import { listEndpointSigningRows, type EndpointSigningRow, type Sql } from '@raffle/db';

export type EndpointTarget = {
  id: string;
  url: string;
  enabled: boolean;
  /** The current secret first, then a rotated-out one still inside its 24 h. */
  secrets: string[];
};

/**
 * Endpoint URLs and secrets for signing, cached for `ttlMs` so thousands of deliveries a second
 * do not each read them, yet an edit or a disable takes effect within that time. A rotation takes
 * effect at once: each delivery carries the secret version it was created or claimed under, and
 * secrets cached under an older one are read again, so nothing sent after a rotation committed
 * goes out without the new secret's signature (a test event sent just after one did, issue 23).
 */
export function createEndpointDirectory(sql: Sql, options: { ttlMs: number; now: () => Date }) {
  const cache = new Map<string, { target: EndpointTarget | null; loadedAt: number; secretVersion: number }>();

  const toTarget = (r: EndpointSigningRow, now: number): EndpointTarget => ({
    id: r.id,
    url: r.url,
    enabled: r.enabled,
    secrets: r.previousSecret && r.previousUntil !== null && r.previousUntil > now ? [r.secret, r.previousSecret] : [r.secret],
  });

  return {
    /**
     * The endpoints named, from cache when fresh and at least at the secret version given for
     * them (`secretVersions`); a deleted endpoint is null.
     */
    async get(ids: readonly string[], secretVersions: ReadonlyMap<string, number> = new Map()): Promise<Map<string, EndpointTarget | null>> {
      const now = options.now().getTime();
      const stale = [...new Set(ids)].filter((id) => {
        const hit = cache.get(id);
        return !hit || now - hit.loadedAt > options.ttlMs || hit.secretVersion < (secretVersions.get(id) ?? 0);
      });
      if (stale.length > 0) {
        const rows = await listEndpointSigningRows(sql, stale);
        const found = new Map(rows.map((r) => [r.id, r]));
        for (const id of stale) {
          const row = found.get(id);
          cache.set(id, { target: row ? toTarget(row, now) : null, loadedAt: now, secretVersion: row?.previousUntil ?? 0 });
        }
      }
      return new Map(ids.map((id) => [id, cache.get(id)?.target ?? null]));
    },
    forget(id: string) {
      cache.delete(id);
    },
  };
}

export type EndpointDirectory = ReturnType<typeof createEndpointDirectory>;
