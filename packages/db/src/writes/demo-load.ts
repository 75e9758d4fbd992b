import { inArray, or, sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../client.js';
import { communityRoles } from '../schema/community-roles.js';
import { eventOutbox } from '../schema/outbox.js';

/**
 * The statements the demo seed needs beyond the ordinary inserts: a lock that serialises two
 * loads, the community roles (which no API writes), and removing the events the load recorded.
 */

/** Any fixed number: it only has to differ from the other advisory locks of the platform. */
const DEMO_LOAD_LOCK = 72707171;

/** Two start commands against one database: the second waits here, then finds the data present. */
export async function lockDemoLoad(tx: Tx): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${DEMO_LOAD_LOCK})`);
}

export async function insertCommunityRoles(tx: DbOrTx, rows: (typeof communityRoles.$inferInsert)[]): Promise<void> {
  if (rows.length > 0) await tx.insert(communityRoles).values(rows);
}

/** Deletes every outbox event addressed to one of these workspaces or users. */
export async function deleteEventsAddressedTo(tx: Tx, audience: { workspaceIds: string[]; userIds: string[] }): Promise<void> {
  await tx.delete(eventOutbox).where(or(inArray(eventOutbox.workspaceId, audience.workspaceIds), inArray(eventOutbox.userId, audience.userIds)));
}
