import type { RequestOptions } from '../../http/request-options.js';
import type { WithResponse } from '../../http/response-info.js';
import type { HttpClient, PagedList } from '../../http/http-client.js';
import { encodePath } from '../encode-path.js';
import type { ListParams, ManagementSchemas, RequestBody } from '../operation-types.js';
import { WorkspaceApiKeys } from './api-keys.js';
import { WorkspaceMembers } from './workspace-members.js';
import { WorkspaceProjects } from './workspace-projects.js';
import { WorkspaceRaffles } from './workspace-raffles.js';
import { WorkspaceWebhookEndpoints } from './workspace-webhook-endpoints.js';

/** A workspace with the caller's `role` in it. */
export type Workspace = ManagementSchemas['DashboardWorkspace'];
export type ListWorkspacesParams = ListParams<'listMyWorkspaces'>;
export type CreateWorkspaceParams = RequestBody<'createWorkspace'>;
export type UpdateWorkspaceParams = RequestBody<'updateWorkspace'>;

/** The workspaces the caller belongs to, and everything that lives in one. */
export class Workspaces {
  readonly members: WorkspaceMembers;
  readonly apiKeys: WorkspaceApiKeys;
  readonly projects: WorkspaceProjects;
  readonly raffles: WorkspaceRaffles;
  readonly webhookEndpoints: WorkspaceWebhookEndpoints;

  constructor(private readonly http: HttpClient) {
    this.members = new WorkspaceMembers(http);
    this.apiKeys = new WorkspaceApiKeys(http);
    this.projects = new WorkspaceProjects(http);
    this.raffles = new WorkspaceRaffles(http);
    this.webhookEndpoints = new WorkspaceWebhookEndpoints(http);
  }

  /** Creates a workspace; the caller becomes its owner. */
  create(params: CreateWorkspaceParams, options?: RequestOptions): Promise<WithResponse<Workspace>> {
    return this.http.request({ method: 'POST', path: '/api/dashboard/workspaces', body: params, options });
  }

  /** The caller's workspaces with their role in each, oldest first. */
  list(params: ListWorkspacesParams = {}, options?: RequestOptions): PagedList<Workspace> {
    return this.http.list({ method: 'GET', path: '/api/dashboard/workspaces', query: { ...params }, options });
  }

  get(workspaceId: string, options?: RequestOptions): Promise<WithResponse<Workspace>> {
    return this.http.request({ method: 'GET', path: encodePath`/api/dashboard/workspaces/${workspaceId}`, options });
  }

  /** Changes the slug, name or logo (owners and admins); the workspace's raffles show the new values. */
  update(workspaceId: string, params: UpdateWorkspaceParams, options?: RequestOptions): Promise<WithResponse<Workspace>> {
    return this.http.request({ method: 'PATCH', path: encodePath`/api/dashboard/workspaces/${workspaceId}`, body: params, options });
  }
}
