import { Type, type Static } from '@sinclair/typebox';
import { WORKSPACE_ROLES } from '../domain-values.js';
import { PageOf, type Pagination } from '../pagination.js';
import { DateTime, Nullable, StringEnum } from '../primitives.js';
import { DisplayName, HttpUrl, Slug } from './dashboard-fields.js';

const Role = (description: string) => StringEnum(WORKSPACE_ROLES, description);

/** A workspace as the dashboard shows it to one of its members: with that member's role. */
export const DashboardWorkspaceSchema = Type.Object(
  {
    id: Type.String(),
    slug: Type.String(),
    name: Type.String(),
    logoUrl: Nullable(Type.String()),
    role: Role("The caller's role in the workspace."),
    createdAt: DateTime(),
    updatedAt: DateTime(),
  },
  { $id: 'DashboardWorkspace', additionalProperties: false },
);
export type DashboardWorkspace = Static<typeof DashboardWorkspaceSchema>;

export const DashboardWorkspacePageSchema = PageOf(Type.Ref(DashboardWorkspaceSchema), 'DashboardWorkspacePage');
export type DashboardWorkspacePage = { data: DashboardWorkspace[]; pagination: Pagination };

export const CreateWorkspaceBodySchema = Type.Object(
  {
    slug: Slug('Unique across the platform.'),
    name: DisplayName('Shown on the workspace and on its raffles.'),
    logoUrl: Type.Optional(Nullable(HttpUrl('Absolute http(s) URL of the logo.'))),
  },
  { $id: 'CreateWorkspaceBody', additionalProperties: false },
);
export type CreateWorkspaceBody = Static<typeof CreateWorkspaceBodySchema>;

export const UpdateWorkspaceBodySchema = Type.Object(
  {
    slug: Type.Optional(Slug('Unique across the platform.')),
    name: Type.Optional(DisplayName('Shown on the workspace and on its raffles.')),
    logoUrl: Type.Optional(Nullable(HttpUrl('Absolute http(s) URL of the logo; null removes it.'))),
  },
  { $id: 'UpdateWorkspaceBody', additionalProperties: false, minProperties: 1 },
);
export type UpdateWorkspaceBody = Static<typeof UpdateWorkspaceBodySchema>;

export const WorkspaceMemberSchema = Type.Object(
  {
    userId: Type.String(),
    handle: Type.String(),
    displayName: Nullable(Type.String()),
    avatarUrl: Nullable(Type.String()),
    role: Role('owner | admin | member'),
    joinedAt: DateTime(),
  },
  { $id: 'WorkspaceMember', additionalProperties: false },
);
export type WorkspaceMember = Static<typeof WorkspaceMemberSchema>;

export const WorkspaceMemberPageSchema = PageOf(Type.Ref(WorkspaceMemberSchema), 'WorkspaceMemberPage');
export type WorkspaceMemberPage = { data: WorkspaceMember[]; pagination: Pagination };

export const AddWorkspaceMemberBodySchema = Type.Object(
  {
    userId: Type.String({ minLength: 1, maxLength: 128, description: 'An existing user.' }),
    role: Role("Only an owner may grant 'owner'."),
  },
  { $id: 'AddWorkspaceMemberBody', additionalProperties: false },
);
export type AddWorkspaceMemberBody = Static<typeof AddWorkspaceMemberBodySchema>;

export const UpdateWorkspaceMemberBodySchema = Type.Object(
  { role: Role("Only an owner may grant 'owner' or change an owner's role.") },
  { $id: 'UpdateWorkspaceMemberBody', additionalProperties: false },
);
export type UpdateWorkspaceMemberBody = Static<typeof UpdateWorkspaceMemberBodySchema>;
