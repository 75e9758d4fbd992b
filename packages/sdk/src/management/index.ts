export { RaffleManagementClient } from './client.js';
export { DEFAULT_MANAGEMENT_BASE_URL, type RaffleManagementClientOptions } from './client-options.js';
export { MANAGEMENT_OPERATION_METHODS } from './operations.js';
export type { ListItem, ListParams, ManagementOperationId, ManagementSchemas, RequestBody, ResponseBody } from './operation-types.js';
export type { Capabilities } from './resources/capabilities.js';
export type { WebhookEventTypeRecord } from './resources/event-types.js';
export type { ApiKey, CreateApiKeyParams, CreatedApiKey, RollApiKeyParams } from './resources/api-keys.js';
export type {
  CreateWebhookEndpointParams,
  ListWebhookDeliveryAttemptsParams,
  ListWebhookEndpointsParams,
  RecoveredWebhookDeliveries,
  RecoverWebhookDeliveriesParams,
  UpdateWebhookEndpointParams,
  WebhookDelivery,
  WebhookDeliveryAttempt,
  WebhookEndpoint,
  WebhookEndpointWithSecret,
  WebhookTestEvent,
} from './resources/webhook-endpoints.js';
export type { LinkedWallet, LinkWalletParams, ListWalletsParams, WalletLinkNonce } from './resources/my-wallets.js';
export type { CompleteConnectionParams, Connection, ConnectionList, ConnectionProvider, ConnectionStart } from './resources/my-connections.js';
export { createWalletLinkMessage, type WalletLinkMessageFields } from './wallet-link-message.js';
export type { PersonalEntry } from './resources/personal-entries.js';
export type { CreateWorkspaceParams, ListWorkspacesParams, UpdateWorkspaceParams, Workspace } from './resources/workspaces.js';
export type { AddWorkspaceMemberParams, ListWorkspaceMembersParams, UpdateWorkspaceMemberParams, WorkspaceMember } from './resources/workspace-members.js';
export type { CreateProjectParams, ListProjectsParams, Project, UpdateProjectParams } from './resources/workspace-projects.js';
export type { CreateRaffleParams, DrawRaffleParams, ListRafflesParams, Raffle, RaffleListItem, UpdateRaffleParams } from './resources/workspace-raffles.js';
export type { DisqualifyEntryParams, EntryRequirementResults, ListRaffleEntriesParams, RaffleEntry } from './resources/raffle-entries.js';
export type { PlatformChain } from './resources/chains.js';
export type { ListRaffleAllowlistLeavesParams, RaffleAllowlist, RaffleAllowlistLeaf, RaffleAllowlistLeafList, RaffleAllowlistLeafPage } from './resources/raffle-allowlist.js';
export type { DisqualifyWinParams, ListRaffleWinsParams, RaffleWin, RerolledWin, RerollWinParams, UpdateWinDeliveryParams } from './resources/raffle-wins.js';
