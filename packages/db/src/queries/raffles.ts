import type { Sql, SqlOrTx } from '../client.js';
import { keysetReadSize, type RenderedRow } from './keyset.js';
import { raffleFilterFragment, type RaffleListFilter } from './raffle-list-filters.js';

export type PublicRaffleKey = { publishedAt: string; id: string };

/** Newest first, narrowed by `filter` when given. */
export async function pageWorkspaceRaffles(
  sql: SqlOrTx,
  args: { workspaceId: string; before: string | null; limit: number; filter?: RaffleListFilter },
): Promise<RenderedRow[]> {
  return sql<RenderedRow[]>`
    select id, workspace_item_json as json from raffles
    where workspace_id = ${args.workspaceId} ${args.before ? sql`and id < ${args.before}` : sql``}
      ${args.filter ? raffleFilterFragment(sql, args.filter) : sql``}
    order by id desc limit ${keysetReadSize(args.limit)}`;
}

/**
 * Published public raffles, most recently published first. The predicate matches the partial
 * index `raffles_public_page_idx` exactly, so the page is an index range scan.
 */
export async function pagePublicRaffles(
  sql: Sql,
  args: { after: PublicRaffleKey | null; limit: number },
): Promise<(RenderedRow & PublicRaffleKey)[]> {
  return sql<(RenderedRow & PublicRaffleKey)[]>`
    select id, to_char(published_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as "publishedAt",
           public_item_json as json
    from raffles
    where visibility = 'public' and status in ('scheduled', 'open', 'closed', 'drawn', 'finalized')
      ${args.after ? sql`and (published_at, id) < (${args.after.publishedAt}::timestamptz, ${args.after.id})` : sql``}
    order by published_at desc, id desc limit ${keysetReadSize(args.limit)}`;
}

/** A raffle's workspace never changes, so callers may cache this answer indefinitely. */
export async function findRaffleWorkspaceId(sql: Sql, raffleId: string): Promise<string | null> {
  const [row] = await sql<{ workspaceId: string }[]>`select workspace_id as "workspaceId" from raffles where id = ${raffleId}`;
  return row?.workspaceId ?? null;
}

/** The slug of the workspace's raffle, or null when the workspace has no raffle of that id (an export names its file after it). */
export async function findWorkspaceRaffleSlug(sql: Sql, args: { workspaceId: string; raffleId: string }): Promise<string | null> {
  const [row] = await sql<{ slug: string }[]>`
    select slug from raffles where id = ${args.raffleId} and workspace_id = ${args.workspaceId}`;
  return row?.slug ?? null;
}

export type RaffleVisibilityRow = { id: string; workspaceId: string; visibility: string; status: string };

/**
 * The raffle a personal key may see by slug: published public or unlisted raffles, and
 * private ones only for members of the raffle's workspace.
 */
export async function findRaffleIdVisibleToUser(sql: Sql, args: { slug: string; userId: string }): Promise<string | null> {
  const [row] = await sql<{ id: string }[]>`
    select r.id from raffles r
    where r.slug = ${args.slug} and r.published_at is not null
      and r.status in ('scheduled', 'open', 'closed', 'drawn', 'finalized')
      and (r.visibility in ('public', 'unlisted')
           or exists (select 1 from workspace_members m where m.workspace_id = r.workspace_id and m.user_id = ${args.userId}))`;
  return row?.id ?? null;
}

export type PubliclyVisibleRaffle = { id: string; status: string };

/**
 * The raffle anyone may see by slug, with no key at all: published and public or unlisted.
 * Private, draft and cancelled raffles are not found, exactly like a slug that does not exist,
 * so the answer says nothing about raffles a stranger may not see. The status is returned
 * because a drawn raffle's proof is cached differently before and after it is finalized.
 */
export async function findPubliclyVisibleRaffle(sql: Sql, slug: string): Promise<PubliclyVisibleRaffle | null> {
  const [row] = await sql<PubliclyVisibleRaffle[]>`
    select id, status from raffles
    where slug = ${slug} and published_at is not null
      and status in ('scheduled', 'open', 'closed', 'drawn', 'finalized')
      and visibility in ('public', 'unlisted')`;
  return row ?? null;
}
