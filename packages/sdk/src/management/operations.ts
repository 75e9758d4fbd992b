import type { ManagementOperationId } from './operation-types.js';

/**
 * Which client method calls each management operation, as a dotted path from the client
 * (`workspaces.raffles.publish` is `mgmt.workspaces.raffles.publish(…)`). Its ids are the
 * document's operationIds, so the completeness test can hold it against the OpenAPI document, and
 * every method takes the operation's path parameters first, in path order.
 */
export const MANAGEMENT_OPERATION_METHODS = {
  getCapabilities: 'capabilities.get',
  listWebhookEventTypes: 'eventTypes.list',

  getMyProfile: 'me.get',
  createWalletLinkNonce: 'me.wallets.nonce',
  linkWallet: 'me.wallets.link',
  listMyWallets: 'me.wallets.list',
  unlinkWallet: 'me.wallets.unlink',
  startConnection: 'me.connections.start',
  completeConnection: 'me.connections.complete',
  listConnections: 'me.connections.list',
  unlinkConnection: 'me.connections.unlink',
  listChains: 'chains.list',

  createPersonalApiKey: 'personal.apiKeys.create',
  listPersonalApiKeys: 'personal.apiKeys.list',
  revokePersonalApiKey: 'personal.apiKeys.revoke',
  rollPersonalApiKey: 'personal.apiKeys.roll',

  createPersonalWebhookEndpoint: 'personal.webhookEndpoints.create',
  listPersonalWebhookEndpoints: 'personal.webhookEndpoints.list',
  getPersonalWebhookEndpoint: 'personal.webhookEndpoints.get',
  updatePersonalWebhookEndpoint: 'personal.webhookEndpoints.update',
  deletePersonalWebhookEndpoint: 'personal.webhookEndpoints.delete',
  rotatePersonalWebhookEndpointSecret: 'personal.webhookEndpoints.rotateSecret',
  testPersonalWebhookEndpoint: 'personal.webhookEndpoints.sendTest',
  listPersonalWebhookDeliveryAttempts: 'personal.webhookEndpoints.deliveries.listAttempts',
  retryPersonalWebhookDelivery: 'personal.webhookEndpoints.deliveries.retry',
  recoverPersonalWebhookDeliveries: 'personal.webhookEndpoints.deliveries.recover',

  enterRaffleAsMe: 'personal.entries.create',
  withdrawMyEntry: 'personal.entries.withdraw',

  createWorkspace: 'workspaces.create',
  listMyWorkspaces: 'workspaces.list',
  getWorkspace: 'workspaces.get',
  updateWorkspace: 'workspaces.update',

  listWorkspaceMembers: 'workspaces.members.list',
  addWorkspaceMember: 'workspaces.members.add',
  updateWorkspaceMember: 'workspaces.members.update',
  removeWorkspaceMember: 'workspaces.members.remove',

  createWorkspaceApiKey: 'workspaces.apiKeys.create',
  listWorkspaceApiKeys: 'workspaces.apiKeys.list',
  revokeWorkspaceApiKey: 'workspaces.apiKeys.revoke',
  rollWorkspaceApiKey: 'workspaces.apiKeys.roll',

  createProject: 'workspaces.projects.create',
  listProjects: 'workspaces.projects.list',
  getProject: 'workspaces.projects.get',
  updateProject: 'workspaces.projects.update',
  deleteProject: 'workspaces.projects.delete',

  createRaffle: 'workspaces.raffles.create',
  listRaffles: 'workspaces.raffles.list',
  getRaffle: 'workspaces.raffles.get',
  updateRaffle: 'workspaces.raffles.update',
  publishRaffle: 'workspaces.raffles.publish',
  openRaffle: 'workspaces.raffles.open',
  closeRaffle: 'workspaces.raffles.close',
  drawRaffle: 'workspaces.raffles.draw',
  finalizeRaffle: 'workspaces.raffles.finalize',
  cancelRaffle: 'workspaces.raffles.cancel',
  listRaffleEntries: 'workspaces.raffles.entries.list',
  getEntryRequirementResults: 'workspaces.raffles.entries.getRequirements',
  disqualifyEntry: 'workspaces.raffles.entries.disqualify',
  listRaffleWins: 'workspaces.raffles.wins.list',
  disqualifyWin: 'workspaces.raffles.wins.disqualify',
  rerollWin: 'workspaces.raffles.wins.reroll',
  setWinDelivery: 'workspaces.raffles.wins.updateDelivery',
  exportRaffleEntriesCsv: 'workspaces.raffles.exportEntriesCsv',
  exportRaffleWinnersCsv: 'workspaces.raffles.exportWinnersCsv',
  getRaffleAllowlist: 'workspaces.raffles.allowlist.get',
  listRaffleAllowlistLeaves: 'workspaces.raffles.allowlist.leaves',

  createWorkspaceWebhookEndpoint: 'workspaces.webhookEndpoints.create',
  listWorkspaceWebhookEndpoints: 'workspaces.webhookEndpoints.list',
  getWorkspaceWebhookEndpoint: 'workspaces.webhookEndpoints.get',
  updateWorkspaceWebhookEndpoint: 'workspaces.webhookEndpoints.update',
  deleteWorkspaceWebhookEndpoint: 'workspaces.webhookEndpoints.delete',
  rotateWorkspaceWebhookEndpointSecret: 'workspaces.webhookEndpoints.rotateSecret',
  testWorkspaceWebhookEndpoint: 'workspaces.webhookEndpoints.sendTest',
  listWorkspaceWebhookDeliveryAttempts: 'workspaces.webhookEndpoints.deliveries.listAttempts',
  retryWorkspaceWebhookDelivery: 'workspaces.webhookEndpoints.deliveries.retry',
  recoverWorkspaceWebhookDeliveries: 'workspaces.webhookEndpoints.deliveries.recover',
} as const satisfies Partial<Record<ManagementOperationId, string>>;
