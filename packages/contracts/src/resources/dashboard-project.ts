import { Type, type Static } from '@sinclair/typebox';
import { PageOf, type Pagination } from '../pagination.js';
import { Nullable } from '../primitives.js';
import { DisplayName, HttpUrl, Slug } from './dashboard-fields.js';
import { ProjectSchema, type Project } from './project.js';

const projectFields = {
  name: DisplayName('Shown on the project and on raffles that name it.'),
  logoUrl: Nullable(HttpUrl('Absolute http(s) URL of the logo.')),
  description: Nullable(Type.String({ maxLength: 5000 })),
  websiteUrl: Nullable(HttpUrl('Absolute http(s) URL of the website.')),
  chain: Nullable(Type.String({ minLength: 1, maxLength: 64, description: 'e.g. ethereum, solana.' })),
};

export const CreateProjectBodySchema = Type.Object(
  {
    slug: Slug('Unique within the workspace.'),
    name: projectFields.name,
    logoUrl: Type.Optional(projectFields.logoUrl),
    description: Type.Optional(projectFields.description),
    websiteUrl: Type.Optional(projectFields.websiteUrl),
    chain: Type.Optional(projectFields.chain),
  },
  { $id: 'CreateProjectBody', additionalProperties: false },
);
export type CreateProjectBody = Static<typeof CreateProjectBodySchema>;

/** Absent fields keep their value; null clears an optional one. */
export const UpdateProjectBodySchema = Type.Object(
  {
    slug: Type.Optional(Slug('Unique within the workspace.')),
    name: Type.Optional(projectFields.name),
    logoUrl: Type.Optional(projectFields.logoUrl),
    description: Type.Optional(projectFields.description),
    websiteUrl: Type.Optional(projectFields.websiteUrl),
    chain: Type.Optional(projectFields.chain),
  },
  { $id: 'UpdateProjectBody', additionalProperties: false, minProperties: 1 },
);
export type UpdateProjectBody = Static<typeof UpdateProjectBodySchema>;

/** Dashboard project lists carry the same `Project` records as the data plane's. */
export const DashboardProjectPageSchema = PageOf(Type.Ref(ProjectSchema), 'DashboardProjectPage');
export type DashboardProjectPage = { data: Project[]; pagination: Pagination };
