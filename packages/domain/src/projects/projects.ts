import type { CreateProjectBody, Project, UpdateProjectBody } from '@raffle/contracts';
import { appendEvents, insertProject, isIdOf, renderProject, schema, type Db, type Tx } from '@raffle/db';
import { and, eq, gt, inArray } from 'drizzle-orm';
import { DomainError } from '../errors.js';
import { requireWorkspaceRole } from '../workspaces/access.js';
import { readPageRequest, toPage, type Page, type PageRequest } from '../workspaces/keyset-page.js';
import { rerenderRaffles } from '../workspaces/rerender-raffles.js';
import { isUniqueViolation } from '../unique-violation.js';
import { assertSlug } from '../workspaces/slug.js';

const { projects, raffles } = schema;

type ProjectScope = { workspaceId: string; userId: string };

const EDITABLE_FIELDS = ['slug', 'name', 'logoUrl', 'description', 'websiteUrl', 'chain'] as const;

// The stored api_json is the data plane's rendering; the dashboard and the events show the same.
const fromStored = (apiJson: string) => JSON.parse(apiJson) as Project;

const slugTaken = (slug: string) => new DomainError('SLUG_TAKEN', `the project slug ${JSON.stringify(slug)} is taken in this workspace`);
const projectNotFound = (projectId: string) => new DomainError('PROJECT_NOT_FOUND', `no project ${projectId} in this workspace`);

function mapSlugConflict(error: unknown, slug: string | undefined): unknown {
  return slug !== undefined && isUniqueViolation(error, 'projects_workspace_slug_idx') ? slugTaken(slug) : error;
}

/** The project row, locked for the rest of the transaction, or 404. */
async function lockProject(tx: Tx, args: { workspaceId: string; projectId: string }) {
  const [row] = isIdOf('project', args.projectId)
    ? await tx
        .select()
        .from(projects)
        .where(and(eq(projects.id, args.projectId), eq(projects.workspaceId, args.workspaceId)))
        .for('update')
    : [];
  if (!row) throw projectNotFound(args.projectId);
  return row;
}

/** Creates a project (owners and admins) and records `project.created` in the same transaction. */
export async function createProject(db: Db, args: ProjectScope & { body: CreateProjectBody; now?: Date }): Promise<Project> {
  assertSlug(args.body.slug);
  const now = args.now ?? new Date();
  try {
    return await db.transaction(async (tx) => {
      await requireWorkspaceRole(tx, { ...args, access: 'manage' });
      const row = await insertProject(tx, { ...args.body, workspaceId: args.workspaceId, createdAt: now });
      await appendEvents(tx, [{ type: 'project.created', audience: { workspaceId: args.workspaceId }, data: row.apiJson, at: now }]);
      return fromStored(row.apiJson);
    });
  } catch (error) {
    throw mapSlugConflict(error, args.body.slug);
  }
}

/** The workspace's projects (any member), oldest first. */
export async function listProjects(db: Db, args: ProjectScope & PageRequest): Promise<Page<Project>> {
  await requireWorkspaceRole(db, { ...args, access: 'view' });
  const binding = `dashboard:projects:${args.workspaceId}`;
  const { after, limit } = readPageRequest(binding, 'project', args);
  const rows = await db
    .select({ id: projects.id, apiJson: projects.apiJson })
    .from(projects)
    .where(and(eq(projects.workspaceId, args.workspaceId), after === null ? undefined : gt(projects.id, after)))
    .orderBy(projects.id)
    .limit(limit + 1);
  return toPage(rows, { limit, binding, cursors: args.cursors, idOf: (r) => r.id, render: (r) => fromStored(r.apiJson) });
}

export async function getProject(db: Db, args: ProjectScope & { projectId: string }): Promise<Project> {
  await requireWorkspaceRole(db, { ...args, access: 'view' });
  const [row] = isIdOf('project', args.projectId)
    ? await db
        .select({ apiJson: projects.apiJson })
        .from(projects)
        .where(and(eq(projects.id, args.projectId), eq(projects.workspaceId, args.workspaceId)))
    : [];
  if (!row) throw projectNotFound(args.projectId);
  return fromStored(row.apiJson);
}

/**
 * Applies the given fields (owners and admins) and records `project.updated`. Raffles naming the
 * project as canonical embed its summary, so they are re-rendered when that summary changes. A
 * patch that changes nothing writes nothing and records no event.
 */
export async function updateProject(db: Db, args: ProjectScope & { projectId: string; body: UpdateProjectBody; now?: Date }): Promise<Project> {
  if (args.body.slug !== undefined) assertSlug(args.body.slug);
  const now = args.now ?? new Date();
  try {
    return await db.transaction(async (tx) => {
      await requireWorkspaceRole(tx, { ...args, access: 'manage' });
      const { apiJson: stored, ...current } = await lockProject(tx, args);
      const next = { ...current };
      for (const field of EDITABLE_FIELDS) {
        if (args.body[field] !== undefined) Object.assign(next, { [field]: args.body[field] });
      }
      const changed = (field: (typeof EDITABLE_FIELDS)[number]) => next[field] !== current[field];
      if (!EDITABLE_FIELDS.some(changed)) return fromStored(stored);

      next.updatedAt = now;
      const apiJson = renderProject(next);
      await tx.update(projects).set({ ...next, apiJson }).where(eq(projects.id, current.id));
      if (changed('slug') || changed('name') || changed('logoUrl')) {
        await rerenderRaffles(tx, eq(raffles.canonicalProjectId, current.id));
      }
      await appendEvents(tx, [{ type: 'project.updated', audience: { workspaceId: args.workspaceId }, data: apiJson, at: now }]);
      return fromStored(apiJson);
    });
  } catch (error) {
    throw mapSlugConflict(error, args.body.slug);
  }
}

/**
 * Deletes a project (owners and admins). Raffles naming it lose their canonical project: the
 * foreign key would null the column but could not re-render their stored JSON, so it is done
 * here first, in the same transaction. There is no `project.deleted` event type.
 */
export async function deleteProject(db: Db, args: ProjectScope & { projectId: string; now?: Date }): Promise<void> {
  const now = args.now ?? new Date();
  await db.transaction(async (tx) => {
    await requireWorkspaceRole(tx, { ...args, access: 'manage' });
    const project = await lockProject(tx, args);
    // Locked in id order, as rerenderRaffles locks, so two such writers cannot deadlock each other.
    const referencing = await tx
      .select({ id: raffles.id })
      .from(raffles)
      .where(eq(raffles.canonicalProjectId, project.id))
      .orderBy(raffles.id)
      .for('update');
    if (referencing.length > 0) {
      const ids = inArray(raffles.id, referencing.map((r) => r.id));
      await tx.update(raffles).set({ canonicalProjectId: null, updatedAt: now }).where(ids);
      await rerenderRaffles(tx, ids);
    }
    await tx.delete(projects).where(eq(projects.id, project.id));
  });
}
