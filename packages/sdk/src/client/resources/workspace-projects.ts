import type { RequestOptions } from '../../http/request-options.js';
import type { WithResponse } from '../../http/response-info.js';
import type { HttpClient, PagedList } from '../../http/http-client.js';
import type { Project, ProjectListParams } from '../api-types.js';

const projectsPath = (workspaceId: string) => `/api/v1/workspaces/${encodeURIComponent(workspaceId)}/projects`;

/** A workspace's projects (workspace key). */
export class WorkspaceProjectsResource {
  constructor(private readonly http: HttpClient) {}

  list(workspaceId: string, params: ProjectListParams = {}, options?: RequestOptions): PagedList<Project> {
    return this.http.list({ method: 'GET', path: projectsPath(workspaceId), query: { ...params }, options });
  }

  get(workspaceId: string, projectId: string, options?: RequestOptions): Promise<WithResponse<Project>> {
    return this.http.request({ method: 'GET', path: `${projectsPath(workspaceId)}/${encodeURIComponent(projectId)}`, options });
  }
}
