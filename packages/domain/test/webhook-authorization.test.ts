import { insertWebhookEndpoint, newId, schema, type WebhookOwner } from '@raffle/db';
import { describe, it } from 'vitest';
import {
  createCursorCodec,
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  getWebhookEndpoint,
  listWebhookDeliveryAttempts,
  listWebhookEndpoints,
  recoverWebhookDeliveries,
  retryWebhookDelivery,
  rotateWebhookEndpointSecret,
  sendWebhookTestEvent,
  updateWebhookEndpoint,
  type EndpointUrlRules,
  type Principal,
} from '../src/index.js';
import { expectAccess, STANDINGS, useWorkspaceTeam, type Standing } from './support/workspace-team.js';

const team = useWorkspaceTeam();

// A public address without DNS: the URL rules are not what these tests are about.
const urlRules: EndpointUrlRules = { addressPolicy: { allowHttp: false, allowedHosts: [] }, resolveHost: async () => ['93.184.216.34'] };

const eventTypeOf = (owner: WebhookOwner) => (owner.kind === 'personal' ? 'entry.created' : 'raffle.published');

/** An enabled endpoint of the owner with one failed delivery, made directly in the database. */
async function newEndpoint(owner: WebhookOwner) {
  const endpoint = await insertWebhookEndpoint(team.db, {
    id: newId('webhookEndpoint'),
    ownerKind: owner.kind,
    userId: owner.kind === 'personal' ? owner.userId : null,
    workspaceId: owner.kind === 'workspace' ? owner.workspaceId : null,
    url: 'https://hooks.example.com/in',
    eventTypes: [eventTypeOf(owner)],
    secret: 'whsec_dGVzdA==',
  });
  const deliveryId = newId('webhookDelivery');
  await team.db
    .insert(schema.webhookDeliveries)
    .values({ id: deliveryId, endpointId: endpoint.id, eventId: newId('event'), eventType: eventTypeOf(owner), status: 'failed' });
  return { endpointId: endpoint.id, deliveryId };
}

type Run = (owner: WebhookOwner, actor: Principal) => Promise<unknown>;

// Every function over webhook endpoints, reads included: a workspace's endpoints are its owners' and admins' only.
const ACTIONS: Record<string, Run> = {
  createWebhookEndpoint: (owner, actor) =>
    createWebhookEndpoint(team.db, {
      owner,
      actor,
      ...urlRules,
      maxEndpoints: 1000,
      body: { url: 'https://hooks.example.com/new', eventTypes: [eventTypeOf(owner)] },
    }),
  listWebhookEndpoints: (owner, actor) => listWebhookEndpoints(team.db, { owner, actor, cursors: createCursorCodec('test-secret', 'dashboard') }),
  getWebhookEndpoint: async (owner, actor) => getWebhookEndpoint(team.db, { owner, actor, ...(await newEndpoint(owner)) }),
  updateWebhookEndpoint: async (owner, actor) =>
    updateWebhookEndpoint(team.db, { owner, actor, ...urlRules, ...(await newEndpoint(owner)), body: { description: 'Changed' } }),
  deleteWebhookEndpoint: async (owner, actor) => deleteWebhookEndpoint(team.db, { owner, actor, ...(await newEndpoint(owner)) }),
  rotateWebhookEndpointSecret: async (owner, actor) => rotateWebhookEndpointSecret(team.db, { owner, actor, ...(await newEndpoint(owner)) }),
  sendWebhookTestEvent: async (owner, actor) => sendWebhookTestEvent(team.db, { owner, actor, ...(await newEndpoint(owner)) }),
  listWebhookDeliveryAttempts: async (owner, actor) =>
    listWebhookDeliveryAttempts(team.db, { owner, actor, ...(await newEndpoint(owner)), cursors: createCursorCodec('test-secret', 'dashboard') }),
  retryWebhookDelivery: async (owner, actor) => retryWebhookDelivery(team.db, { owner, actor, ...(await newEndpoint(owner)) }),
  recoverWebhookDeliveries: async (owner, actor) =>
    recoverWebhookDeliveries(team.db, { owner, actor, ...(await newEndpoint(owner)), since: new Date(Date.now() - 3_600_000).toISOString() }),
};

const cases = (may: Standing[]) =>
  Object.entries(ACTIONS).flatMap(([action, run]) => STANDINGS.map((standing) => ({ action, run, standing, allowed: may.includes(standing) })));

describe('webhook endpoint functions check the acting principal in their own transaction', () => {
  it.each(cases(['system', 'owner', 'admin']))("$action on the workspace's endpoints as $standing: allowed $allowed", async ({ run, standing, allowed }) => {
    await expectAccess(run({ kind: 'workspace', workspaceId: team.workspace.id }, team.actors[standing]), allowed);
  });

  // The member's own endpoints: no other user, whatever their role in a shared workspace, may touch them.
  it.each(cases(['system', 'member']))("$action on the member's personal endpoints as $standing: allowed $allowed", async ({ run, standing, allowed }) => {
    await expectAccess(run({ kind: 'personal', userId: team.users.member.id }, team.actors[standing]), allowed);
  });
});
