import type { RequestOptions } from '../../http/request-options.js';
import type { WithResponse } from '../../http/response-info.js';
import type { HttpClient, PagedList } from '../../http/http-client.js';
import { encodePath } from '../encode-path.js';
import type { ListParams, ManagementSchemas, RequestBody } from '../operation-types.js';

export type Project = ManagementSchemas['Project'];
export type ListProjectsParams = ListParams<'listProjects'>;
export type CreateProjectParams = RequestBody<'createProject'>;
export type UpdateProjectParams = RequestBody<'updateProject'>;

const projectsPath = (workspaceId: string) => encodePath`/api/dashboard/workspaces/${workspaceId}/projects`;
const projectPath = (workspaceId: string, projectId: string) => encodePath`/api/dashboard/workspaces/${workspaceId}/projects/${projectId}`;

/** A workspace's projects. Any member reads; owners and admins change. */
export class WorkspaceProjects {
  constructor(private readonly http: HttpClient) {}

  create(workspaceId: string, params: CreateProjectParams, options?: RequestOptions): Promise<WithResponse<Project>> {
    return this.http.request({ method: 'POST', path: projectsPath(workspaceId), body: params, options });
  }

  /** The projects, oldest first. */
  list(workspaceId: string, params: ListProjectsParams = {}, options?: RequestOptions): PagedList<Project> {
    return this.http.list({ method: 'GET', path: projectsPath(workspaceId), query: { ...params }, options });
  }

  get(workspaceId: string, projectId: string, options?: RequestOptions): Promise<WithResponse<Project>> {
    return this.http.request({ method: 'GET', path: projectPath(workspaceId, projectId), options });
  }

  /** Changes some fields; `null` clears an optional one. */
  update(workspaceId: string, projectId: string, params: UpdateProjectParams, options?: RequestOptions): Promise<WithResponse<Project>> {
    return this.http.request({ method: 'PATCH', path: projectPath(workspaceId, projectId), body: params, options });
  }

  /** Deletes the project; raffles naming it lose their canonical project. */
  delete(workspaceId: string, projectId: string, options?: RequestOptions): Promise<void> {
    return this.http.request({ method: 'DELETE', path: projectPath(workspaceId, projectId), options });
  }
}
