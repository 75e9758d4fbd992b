import type { CursorCodec } from '@raffle/domain';
import { Type } from '@sinclair/typebox';

/** As in ../responses.ts: path values reach SQL as parameters, and Postgres text cannot hold NUL. */
const pathString = (description: string) =>
  Type.String({ minLength: 1, maxLength: 128, pattern: '^[^\\u0000-\\u001f]+$', description });

export const DashboardWorkspaceParams = Type.Object({ workspaceId: pathString('Workspace id') }, { additionalProperties: false });

export const WorkspaceMemberParams = Type.Object(
  { workspaceId: pathString('Workspace id'), userId: pathString('User id of the member') },
  { additionalProperties: false },
);

export const WorkspaceProjectParams = Type.Object(
  { workspaceId: pathString('Workspace id'), projectId: pathString('Project id') },
  { additionalProperties: false },
);

/** A list's query as the domain takes it: the schema has already checked `limit` is 1 to 100. */
export const pageRequestOf = (query: { limit?: string; cursor?: string }, cursors: CursorCodec) => ({
  limit: query.limit === undefined ? undefined : Number(query.limit),
  cursor: query.cursor,
  cursors,
});
