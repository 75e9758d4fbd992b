import type { HttpClient } from '../../http/http-client.js';
import type { ResponseBody } from '../operation-types.js';
import { ManagementConnections } from './my-connections.js';
import { ManagementWallets } from './my-wallets.js';

/** The same shape as the data plane's `Profile` (`GET /api/v1/me`), which the package exports under that name. */
type Profile = ResponseBody<'getMyProfile'>;

/** The signed-in user. */
export class ManagementMe {
  /** The user's wallets: link one by its signature, list, unlink. */
  readonly wallets: ManagementWallets;
  /** The user's Discord and X accounts: link one by OAuth, list, unlink. */
  readonly connections: ManagementConnections;

  constructor(private readonly http: HttpClient) {
    this.wallets = new ManagementWallets(http);
    this.connections = new ManagementConnections(http);
  }

  /** `GET /api/dashboard/me`: the signed-in user's profile (id, handle, display name, avatar, wallets). */
  get(): Promise<Profile> {
    return this.http.request({ method: 'GET', path: '/api/dashboard/me' });
  }
}
