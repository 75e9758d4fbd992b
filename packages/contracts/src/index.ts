import { ErrorBodySchema, ManagementErrorBodySchema, RequirementFailureSchema } from './errors.js';
import { EventEnvelopeSchema } from './events.js';
import { PaginationSchema } from './pagination.js';
import { ApiKeyRecordSchema, CreateApiKeyBodySchema, CreatedApiKeySchema } from './resources/api-key.js';
import { CapabilitiesSchema } from './resources/capabilities.js';
import { DuplicateFlagsSchema, RequirementResultSchema, SanitizedEntrySchema, WorkspaceEntrySchema } from './resources/entry.js';
import { ProfileSchema, WalletSchema } from './resources/profile.js';
import { LinkedWalletPageSchema, LinkedWalletSchema, LinkWalletBodySchema, WalletLinkNonceSchema } from './resources/linked-wallet.js';
import { CompleteConnectionBodySchema, ConnectionListSchema, ConnectionSchema, ConnectionStartSchema } from './resources/connection.js';
import { ProjectSchema, ProjectSummarySchema } from './resources/project.js';
import {
  PublicRaffleItemSchema,
  PublicRaffleSchema,
  PublicRequirementSchema,
  WorkspaceRaffleItemSchema,
  WorkspaceRaffleSchema,
  WorkspaceSummarySchema,
} from './resources/raffle.js';
import {
  CreateRaffleBodySchema,
  DashboardRaffleSchema,
  DrawRaffleBodySchema,
  RaffleRequirementInputSchema,
  RaffleRequirementSchema,
  RaffleSettingsSchema,
  ReasonBodySchema,
  RerollWinBodySchema,
  SetDeliveryBodySchema,
  UpdateRaffleBodySchema,
} from './resources/dashboard-raffle.js';
import { IdentitySnapshotSchema, WinnerSchema, WinRaffleSchema, WinSchema } from './resources/win.js';
import { DrawProofSchema, PlatformBeaconChainSchema } from './resources/draw-proof.js';
import { DrawCommitmentSchema } from './resources/draw-commitment.js';
import {
  AllowlistLeafPageSchema,
  AllowlistLeafSchema,
  AllowlistProofSchema,
  AllowlistPublishedSchema,
  AllowlistSchema,
  AllowlistVersionSchema,
  AllowlistWalletSchema,
  NameAllowlistWalletBodySchema,
} from './resources/allowlist.js';
import { DashboardEntryPageSchema, DashboardRafflePageSchema, DashboardWinPageSchema } from './resources/dashboard-raffle-lists.js';
import { DashboardWinSchema, RerolledWinSchema } from './resources/dashboard-win.js';
import { CreateProjectBodySchema, DashboardProjectPageSchema, UpdateProjectBodySchema } from './resources/dashboard-project.js';
import {
  AddWorkspaceMemberBodySchema,
  CreateWorkspaceBodySchema,
  DashboardWorkspacePageSchema,
  DashboardWorkspaceSchema,
  UpdateWorkspaceBodySchema,
  UpdateWorkspaceMemberBodySchema,
  WorkspaceMemberPageSchema,
  WorkspaceMemberSchema,
} from './resources/dashboard-workspace.js';
import {
  CreatedWebhookEndpointSchema,
  CreateWebhookEndpointBodySchema,
  RecoveredWebhookDeliveriesSchema,
  RecoverWebhookDeliveriesBodySchema,
  UpdateWebhookEndpointBodySchema,
  WebhookDeliveryAttemptPageSchema,
  WebhookDeliveryAttemptSchema,
  WebhookDeliverySchema,
  WebhookEndpointPageSchema,
  WebhookEndpointSchema,
  WebhookTestEventSchema,
} from './resources/webhook-endpoint.js';
import { WebhookEventTypePageSchema, WebhookEventTypeSchema } from './resources/webhook-event-type.js';
import { EntryRequirementResultsSchema, PlatformChainListSchema, PlatformChainSchema, WorkspaceRequirementResultSchema } from './resources/dashboard-chains.js';

export * from './domain-values.js';
export * from './errors.js';
export * from './events.js';
export * from './pagination.js';
export * from './primitives.js';
export * from './scopes.js';
export * from './subjects.js';
export * from './api-key-format.js';
export * from './resources/api-key.js';
export * from './resources/capabilities.js';
export * from './resources/entry.js';
export * from './resources/profile.js';
export * from './resources/linked-wallet.js';
export * from './resources/connection.js';
export * from './resources/project.js';
export * from './resources/raffle.js';
export * from './resources/win.js';
export * from './resources/draw-proof.js';
export * from './resources/draw-commitment.js';
export * from './resources/allowlist.js';
export * from './resources/allowlist-queries.js';
export * from './resources/dashboard-raffle.js';
export * from './resources/dashboard-win.js';
export * from './resources/dashboard-raffle-lists.js';
export * from './resources/dashboard-chains.js';
export * from './resources/dashboard-fields.js';
export * from './resources/raffle-list-filters.js';
export * from './resources/dashboard-project.js';
export * from './resources/dashboard-workspace.js';
export * from './resources/webhook-endpoint.js';
export * from './resources/raffle-exports.js';
export * from './webhook-event-payloads.js';
export * from './webhook-event-catalog.js';
export * from './inline-schema-refs.js';
export * from './resources/webhook-event-type.js';

/**
 * Every schema with an `$id`, in dependency order. Services register these once
 * (`fastify.addSchema`) so routes `$ref` them and the OpenAPI document names them as components.
 */
export const SHARED_SCHEMAS = [
  PaginationSchema,
  RequirementFailureSchema,
  ErrorBodySchema,
  ManagementErrorBodySchema,
  ProjectSummarySchema,
  ProjectSchema,
  PublicRequirementSchema,
  WorkspaceSummarySchema,
  WorkspaceRaffleItemSchema,
  WorkspaceRaffleSchema,
  PublicRaffleItemSchema,
  PublicRaffleSchema,
  DuplicateFlagsSchema,
  WorkspaceEntrySchema,
  RequirementResultSchema,
  SanitizedEntrySchema,
  WinRaffleSchema,
  WinSchema,
  IdentitySnapshotSchema,
  WinnerSchema,
  DrawProofSchema,
  DrawCommitmentSchema,
  AllowlistVersionSchema,
  AllowlistSchema,
  AllowlistLeafSchema,
  AllowlistLeafPageSchema,
  AllowlistProofSchema,
  NameAllowlistWalletBodySchema,
  AllowlistWalletSchema,
  AllowlistPublishedSchema,
  PlatformBeaconChainSchema,
  WalletSchema,
  ProfileSchema,
  LinkedWalletSchema,
  LinkedWalletPageSchema,
  WalletLinkNonceSchema,
  LinkWalletBodySchema,
  ConnectionSchema,
  ConnectionListSchema,
  ConnectionStartSchema,
  CompleteConnectionBodySchema,
  ApiKeyRecordSchema,
  CreatedApiKeySchema,
  CreateApiKeyBodySchema,
  CapabilitiesSchema,
  EventEnvelopeSchema,
  RaffleRequirementSchema,
  RaffleRequirementInputSchema,
  RaffleSettingsSchema,
  CreateRaffleBodySchema,
  UpdateRaffleBodySchema,
  DashboardRaffleSchema,
  DrawRaffleBodySchema,
  ReasonBodySchema,
  RerollWinBodySchema,
  SetDeliveryBodySchema,
  DashboardWinSchema,
  RerolledWinSchema,
  DashboardRafflePageSchema,
  DashboardEntryPageSchema,
  DashboardWinPageSchema,
  WorkspaceRequirementResultSchema,
  EntryRequirementResultsSchema,
  PlatformChainSchema,
  PlatformChainListSchema,
  DashboardWorkspaceSchema,
  DashboardWorkspacePageSchema,
  CreateWorkspaceBodySchema,
  UpdateWorkspaceBodySchema,
  WorkspaceMemberSchema,
  WorkspaceMemberPageSchema,
  AddWorkspaceMemberBodySchema,
  UpdateWorkspaceMemberBodySchema,
  DashboardProjectPageSchema,
  CreateProjectBodySchema,
  UpdateProjectBodySchema,
  WebhookEndpointSchema,
  CreatedWebhookEndpointSchema,
  WebhookEndpointPageSchema,
  CreateWebhookEndpointBodySchema,
  UpdateWebhookEndpointBodySchema,
  WebhookTestEventSchema,
  WebhookDeliveryAttemptSchema,
  WebhookDeliveryAttemptPageSchema,
  WebhookDeliverySchema,
  RecoverWebhookDeliveriesBodySchema,
  RecoveredWebhookDeliveriesSchema,
  WebhookEventTypeSchema,
  WebhookEventTypePageSchema,
] as const;
