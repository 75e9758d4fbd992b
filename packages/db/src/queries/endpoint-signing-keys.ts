import type { Sql } from '../client.js';

/**
 * An endpoint's signing-secret version: when its rotated-out secret stops signing, in epoch
 * milliseconds, or 0 before any rotation. A rotation is the only write of that column and always
 * moves it forward, so a signer whose cached secrets carry a lower version than a delivery knows
 * they predate a rotation. Of the endpoint aliased `e`; a float8, which the driver hands over as a number.
 */
export const endpointSecretVersion = (sql: Sql) => sql`coalesce(extract(epoch from e.previous_secret_expires_at) * 1000, 0)::float8`;

/** What the dispatcher needs to sign and send to one endpoint. */
export type EndpointSigningRow = {
  id: string;
  url: string;
  enabled: boolean;
  secret: string;
  previousSecret: string | null;
  /** When the rotated-out secret stops signing, in epoch milliseconds; null without one. */
  previousUntil: number | null;
};

/** The endpoints named that still exist (a deleted one is simply absent). */
export async function listEndpointSigningRows(sql: Sql, endpointIds: readonly string[]): Promise<EndpointSigningRow[]> {
  const rows = await sql<(Omit<EndpointSigningRow, 'previousUntil'> & { previousUntil: string | number | null })[]>`
    select id, url, enabled, secret, previous_secret as "previousSecret",
           extract(epoch from previous_secret_expires_at) * 1000 as "previousUntil"
    from webhook_endpoints where id = any(${endpointIds})`;
  // `extract` answers numeric, which the driver hands over as a string.
  return rows.map((r) => ({ ...r, previousUntil: r.previousUntil === null ? null : Number(r.previousUntil) }));
}
