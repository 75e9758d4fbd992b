import { renderRaffleColumns, schema, type CanonicalProject, type RaffleRow, type Tx } from '@raffle/db';
import { getTableColumns, inArray, sql, type SQL } from 'drizzle-orm';

// Everything but the stored JSON: exactly what the renderers take.
const { workspaceItemJson: _workspaceItemJson, publicItemJson: _publicItemJson, ...rowColumns } = getTableColumns(schema.raffles);

const ROWS_PER_STATEMENT = 1000;

/**
 * Re-renders the stored JSON of the raffles matching `where` after something they embed changed
 * (their workspace, their canonical project). It uses the renderers every raffle write uses, so
 * the text is what a fresh write would store, but loads the context once and writes in batches
 * rather than running updateRaffle (three statements) per raffle. `updatedAt` is kept: the
 * raffles' own fields did not change. Rows are locked in id order, as concurrent writers expect.
 */
export async function rerenderRaffles(tx: Tx, where: SQL): Promise<number> {
  const rows: RaffleRow[] = await tx.select(rowColumns).from(schema.raffles).where(where).orderBy(schema.raffles.id).for('update');
  if (rows.length === 0) return 0;

  const workspaceIds = [...new Set(rows.map((r) => r.workspaceId))];
  const workspaces = new Map(
    (await tx.select().from(schema.workspaces).where(inArray(schema.workspaces.id, workspaceIds))).map((w) => [w.id, w]),
  );
  const projectIds = [...new Set(rows.flatMap((r) => (r.canonicalProjectId ? [r.canonicalProjectId] : [])))];
  const projects = new Map<string, NonNullable<CanonicalProject>>();
  if (projectIds.length > 0) {
    const found = await tx
      .select({ id: schema.projects.id, slug: schema.projects.slug, name: schema.projects.name, logoUrl: schema.projects.logoUrl })
      .from(schema.projects)
      .where(inArray(schema.projects.id, projectIds));
    for (const p of found) projects.set(p.id, p);
  }

  const rendered = rows.map((r) => {
    const workspace = workspaces.get(r.workspaceId);
    if (!workspace) throw new Error(`workspace ${r.workspaceId} of raffle ${r.id} does not exist`);
    const canonicalProject = r.canonicalProjectId ? (projects.get(r.canonicalProjectId) ?? null) : null;
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
