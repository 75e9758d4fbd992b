import { pathString } from '@raffle/service-kit';
import { Type } from '@sinclair/typebox';

export const DashboardWorkspaceParams = Type.Object({ workspaceId: pathString('Workspace id') }, { additionalProperties: false });

export const WorkspaceMemberParams = Type.Object(
  { workspaceId: pathString('Workspace id'), userId: pathString('User id of the member') },
  { additionalProperties: false },
);

export const WorkspaceProjectParams = Type.Object(
  { workspaceId: pathString('Workspace id'), projectId: pathString('Project id') },
  { additionalProperties: false },
);
