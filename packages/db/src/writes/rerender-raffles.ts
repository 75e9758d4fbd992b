import { eq, getTableColumns, inArray, sql, type SQL } from 'drizzle-orm';
import type { Tx } from '../client.js';
import { renderRaffleColumns, type CanonicalProject, type RaffleRow } from '../render/raffle.js';
import { projects } from '../schema/projects.js';
import { raffles } from '../schema/raffles.js';
import { workspaces } from '../schema/workspaces.js';

// Everything but the stored JSON: exactly what the renderers take.
const { workspaceItemJson: _workspaceItemJson, publicItemJson: _publicItemJson, ...rowColumns } = getTableColumns(raffles);

const ROWS_PER_STATEMENT = 1000;

/**
 * Re-renders the stored JSON of the raffles matching `where` after something they embed changed
 * (their workspace, their canonical project). It uses the renderers every raffle write uses, so
 * the text is what a fresh write would store, but loads the context once and writes in batches
 * rather than running updateRaffle (three statements) per raffle. `updatedAt` is kept: the
 * raffles' own fields did not change. Rows are locked in id order, as concurrent writers expect.
 */
async function rerenderRaffles(tx: Tx, where: SQL): Promise<number> {
  const rows: RaffleRow[] = await tx.select(rowColumns).from(raffles).where(where).orderBy(raffles.id).for('no key update');
  if (rows.length === 0) return 0;

  const workspaceIds = [...new Set(rows.map((r) => r.workspaceId))];
  const workspacesById = new Map((await tx.select().from(workspaces).where(inArray(workspaces.id, workspaceIds))).map((w) => [w.id, w]));
  const projectIds = [...new Set(rows.flatMap((r) => (r.canonicalProjectId ? [r.canonicalProjectId] : [])))];
  const projectsById = new Map<string, NonNullable<CanonicalProject>>();
  if (projectIds.length > 0) {
    const found = await tx
      .select({ id: projects.id, slug: projects.slug, name: projects.name, logoUrl: projects.logoUrl })
      .from(projects)
      .where(inArray(projects.id, projectIds));
    for (const p of found) projectsById.set(p.id, p);
  }

  const rendered = rows.map((r) => {
    const workspace = workspacesById.get(r.workspaceId);
    if (!workspace) throw new Error(`workspace ${r.workspaceId} of raffle ${r.id} does not exist`);
    const canonicalProject = r.canonicalProjectId ? (projectsById.get(r.canonicalProjectId) ?? null) : null;
    return { id: r.id, ...renderRaffleColumns(r, { workspace, canonicalProject }) };
  });
  for (let i = 0; i < rendered.length; i += ROWS_PER_STATEMENT) {
    const values = sql.join(
      rendered.slice(i, i + ROWS_PER_STATEMENT).map((r) => sql`(${r.id}, ${r.workspaceItemJson}, ${r.publicItemJson})`),
      sql`, `,
    );
    await tx.execute(sql`
      update raffles as r set workspace_item_json = v.workspace_item_json, public_item_json = v.public_item_json
      from (values ${values}) as v(id, workspace_item_json, public_item_json)
      where r.id = v.id`);
  }
  return rows.length;
}

/** After the workspace's slug, name or logo changed: every raffle of it embeds them. */
export const rerenderWorkspaceRaffles = (tx: Tx, workspaceId: string) => rerenderRaffles(tx, eq(raffles.workspaceId, workspaceId));

/** After the project's slug, name or logo changed: the raffles naming it as canonical embed them. */
export const rerenderProjectRaffles = (tx: Tx, projectId: string) => rerenderRaffles(tx, eq(raffles.canonicalProjectId, projectId));

/**
 * Before a project is deleted: the raffles naming it lose their canonical project. The foreign
 * key would null the column but could not re-render their stored JSON, so it is done here, in
 * the caller's transaction. Locked in id order, as rerenderRaffles locks, so two such writers
 * cannot deadlock each other.
 */
export async function detachProjectFromRaffles(tx: Tx, projectId: string, at: Date): Promise<void> {
  const referencing = await tx
    .select({ id: raffles.id })
    .from(raffles)
    .where(eq(raffles.canonicalProjectId, projectId))
    .orderBy(raffles.id)
    .for('no key update');
  if (referencing.length === 0) return;
  const ids = inArray(raffles.id, referencing.map((r) => r.id));
  await tx.update(raffles).set({ canonicalProjectId: null, updatedAt: at }).where(ids);
  await rerenderRaffles(tx, ids);
}
