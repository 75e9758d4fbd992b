import type { RequestOptions } from '../../http/request-options.js';
import type { WithResponse } from '../../http/response-info.js';
import type { HttpClient, PagedList } from '../../http/http-client.js';
import { encodePath } from '../encode-path.js';
import type { ListItem, ListParams, RequestBody, ResponseBody } from '../operation-types.js';

export type WorkspaceMember = ListItem<'listWorkspaceMembers'>;
export type ListWorkspaceMembersParams = ListParams<'listWorkspaceMembers'>;
export type AddWorkspaceMemberParams = RequestBody<'addWorkspaceMember'>;
export type UpdateWorkspaceMemberParams = RequestBody<'updateWorkspaceMember'>;

const membersPath = (workspaceId: string) => encodePath`/api/dashboard/workspaces/${workspaceId}/members`;
const memberPath = (workspaceId: string, userId: string) => encodePath`/api/dashboard/workspaces/${workspaceId}/members/${userId}`;

/** A workspace's members and their roles. Any member reads; owners and admins change (only an owner touches owners). */
export class WorkspaceMembers {
  constructor(private readonly http: HttpClient) {}

  /** The members in user id order. */
  list(workspaceId: string, params: ListWorkspaceMembersParams = {}, options?: RequestOptions): PagedList<WorkspaceMember> {
    return this.http.list({ method: 'GET', path: membersPath(workspaceId), query: { ...params }, options });
  }

  /** Adds an existing user with a role; 409 when the user is already a member. */
  add(workspaceId: string, params: AddWorkspaceMemberParams, options?: RequestOptions): Promise<WithResponse<ResponseBody<'addWorkspaceMember'>>> {
    return this.http.request({ method: 'POST', path: membersPath(workspaceId), body: params, options });
  }

  /** Changes a member's role; the last owner cannot step down (409). */
  update(workspaceId: string, userId: string, params: UpdateWorkspaceMemberParams, options?: RequestOptions): Promise<WithResponse<ResponseBody<'updateWorkspaceMember'>>> {
    return this.http.request({ method: 'PATCH', path: memberPath(workspaceId, userId), body: params, options });
  }

  /** Removes a member, or leaves when `userId` is the caller's own; the last owner cannot go (409). */
  remove(workspaceId: string, userId: string, options?: RequestOptions): Promise<void> {
    return this.http.request({ method: 'DELETE', path: memberPath(workspaceId, userId), options });
  }
}
