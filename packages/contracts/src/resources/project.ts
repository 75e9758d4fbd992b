import { Type, type Static } from '@sinclair/typebox';
import { DateTime, Nullable } from '../primitives.js';

export const ProjectSummarySchema = Type.Object(
  {
    id: Type.String(),
    slug: Type.String(),
    name: Type.String(),
    logoUrl: Type.Optional(Nullable(Type.String())),
  },
  { $id: 'ProjectSummary', additionalProperties: false },
);
export type ProjectSummary = Static<typeof ProjectSummarySchema>;

/** The full project record (product.md); optional text fields are absent when unset. */
export const ProjectSchema = Type.Object(
  {
    id: Type.String(),
    workspaceId: Type.String(),
    slug: Type.String(),
    name: Type.String(),
    logoUrl: Nullable(Type.String()),
    description: Nullable(Type.String()),
    websiteUrl: Nullable(Type.String()),
    chain: Nullable(Type.String()),
    createdAt: DateTime(),
    updatedAt: DateTime(),
  },
  { $id: 'Project', additionalProperties: false },
);
export type Project = Static<typeof ProjectSchema>;
