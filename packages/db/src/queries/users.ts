import { eq } from 'drizzle-orm';
import type { DbOrTx, Sql } from '../client.js';
import { users, userWallets } from '../schema/users.js';

export async function findProfileJson(sql: Sql, userId: string): Promise<string | null> {
  const [row] = await sql<{ json: string }[]>`select profile_json as json from users where id = ${userId}`;
  return row?.json ?? null;
}

export async function userExists(db: DbOrTx, userId: string): Promise<boolean> {
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.id, userId));
  return row !== undefined;
}

export async function findUserWithWallets(tx: DbOrTx, userId: string) {
  const [user] = await tx.select().from(users).where(eq(users.id, userId));
  if (!user) return null;
  const wallets = await tx.select().from(userWallets).where(eq(userWallets.userId, userId));
  return { user, wallets };
}
