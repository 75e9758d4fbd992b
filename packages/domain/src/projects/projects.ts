import { DASHBOARD_PAGE_SIZE, type CreateProjectBody, type Project, type UpdateProjectBody } from '@raffle/contracts';
import {
  appendEvents,
  deleteProjectRow,
  detachProjectFromRaffles,
  findProjectApiJson,
  insertProject,
  isIdOf,
  lockProjectRow,
  pageProjectApiJson,
  renderProject,
  rerenderProjectRaffles,
  updateProjectRow,
  type Db,
  type Tx,
} from '@raffle/db';
import { DomainError } from '../errors.js';
import { cursorBinding } from '../pagination/binding.js';
import { isIdKey } from '../pagination/keys.js';
import { readPageRequest, toPage, type Page, type PageRequest } from '../pagination/page.js';
import { requireWorkspaceAccess, type Principal } from '../principal.js';
import { isUniqueViolation } from '../unique-violation.js';
import { assertSlug } from '../workspaces/slug.js';

/** The workspace whose projects these are, and who acts on them (reads: any member; changes: owners and admins). */
type ProjectScope = { workspaceId: string; actor: Principal };

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
  const row = isIdOf('project', args.projectId) ? await lockProjectRow(tx, args) : null;
  if (!row) throw projectNotFound(args.projectId);
  return row;
}

/** Creates a project (owners and admins) and records `project.created` in the same transaction. */
export async function createProject(db: Db, args: ProjectScope & { body: CreateProjectBody; now?: Date }): Promise<Project> {
  assertSlug(args.body.slug);
  const now = args.now ?? new Date();
  try {
    return await db.transaction(async (tx) => {
      await requireWorkspaceAccess(tx, args.actor, args.workspaceId, 'manage');
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
  await requireWorkspaceAccess(db, args.actor, args.workspaceId, 'view');
  const page = readPageRequest(args, { binding: cursorBinding('dashboard:projects', args.workspaceId), rule: DASHBOARD_PAGE_SIZE, isKey: isIdKey('project') });
  const rows = await pageProjectApiJson(db, { workspaceId: args.workspaceId, after: page.after?.[0] ?? null, limit: page.limit });
  return toPage(rows, page, (r) => [r.id], (r) => fromStored(r.apiJson));
}

export async function getProject(db: Db, args: ProjectScope & { projectId: string }): Promise<Project> {
  await requireWorkspaceAccess(db, args.actor, args.workspaceId, 'view');
  const apiJson = isIdOf('project', args.projectId) ? await findProjectApiJson(db, args) : null;
  if (apiJson === null) throw projectNotFound(args.projectId);
  return fromStored(apiJson);
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
      await requireWorkspaceAccess(tx, args.actor, args.workspaceId, 'manage');
      const { apiJson: stored, ...current } = await lockProject(tx, args);
      const next = { ...current };
      for (const field of EDITABLE_FIELDS) {
        if (args.body[field] !== undefined) Object.assign(next, { [field]: args.body[field] });
      }
      const changed = (field: (typeof EDITABLE_FIELDS)[number]) => next[field] !== current[field];
      if (!EDITABLE_FIELDS.some(changed)) return fromStored(stored);

      next.updatedAt = now;
      const apiJson = renderProject(next);
      await updateProjectRow(tx, { ...next, apiJson });
      if (changed('slug') || changed('name') || changed('logoUrl')) await rerenderProjectRaffles(tx, current.id);
      await appendEvents(tx, [{ type: 'project.updated', audience: { workspaceId: args.workspaceId }, data: apiJson, at: now }]);
      return fromStored(apiJson);
    });
  } catch (error) {
    throw mapSlugConflict(error, args.body.slug);
  }
}

/**
 * Deletes a project (owners and admins). Raffles naming it lose their canonical project first,
 * re-rendered, in the same transaction. There is no `project.deleted` event type.
 */
export async function deleteProject(db: Db, args: ProjectScope & { projectId: string; now?: Date }): Promise<void> {
  const now = args.now ?? new Date();
  await db.transaction(async (tx) => {
    await requireWorkspaceAccess(tx, args.actor, args.workspaceId, 'manage');
    const project = await lockProject(tx, args);
    await detachProjectFromRaffles(tx, project.id, now);
    await deleteProjectRow(tx, project.id);
  });
}
