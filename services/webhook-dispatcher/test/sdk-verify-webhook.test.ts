import { randomBytes } from 'node:crypto';
import {
  inlineSchemaRefs,
  PERSONAL_WEBHOOK_EVENTS,
  SHARED_SCHEMAS,
  WEBHOOK_EVENT_CATALOG,
  WEBHOOK_EVENT_SCHEMAS,
  WORKSPACE_WEBHOOK_EVENTS,
  type WebhookEventType as ContractEventType,
} from '@raffle/contracts';
import { localRoundSigner } from '@raffle/beacon';
import { addWorkspaceMember, insertUser, type Db } from '@raffle/db';
import {
  cancelRaffle,
  closeRaffle,
  createProject,
  createRaffle,
  disqualifyEntry,
  disqualifyWin,
  drawRaffle,
  enterRaffle,
  finalizeRaffle,
  issueWalletLinkNonce,
  linkWallet,
  liveWinsOf,
  parseAllowedOrigins,
  publishRaffle,
  rerollWin,
  rotateWebhookEndpointSecret,
  sendWebhookTestEvent,
  setWinDelivery,
  unlinkWallet,
  updateProject,
  userPrincipal,
  withdrawEntry,
  type AllowedOrigin,
  publishDueAllowlists,
  systemClock,
} from '@raffle/domain';
import { createWalletLinkMessage, verifyWebhook, WebhookVerificationError, type WebhookEvent } from '@raffle/sdk';
import { localChainReader } from '@raffle/service-kit/testing';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DispatcherApp } from '../src/app.js';
import { buildTestApp, isolatedStreamNames } from './support/app.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { createOwners } from './support/fixtures.js';
import { registerSecret } from './support/log-scan.js';
import { startSink, type Received } from './support/sink.js';

/**
 * The real path end to end: domain transitions write every event type to the outbox, the
 * dispatcher relays, fans out, signs and POSTs them to a local receiver, and the SDK's
 * verifyWebhook checks what arrived. Each body must also match its payload schema in the
 * contracts' catalogue (and the self-contained copy management serves), and every type of each
 * audience must have been seen: a renderer or an event that drifts from the catalogue fails here.
 */
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as unknown as (ajv: Ajv2020) => Ajv2020;
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
for (const schema of [...SHARED_SCHEMAS, ...WEBHOOK_EVENT_SCHEMAS]) ajv.addSchema(schema as object);

function schemaErrors(id: string, value: unknown): string[] {
  const validate = ajv.getSchema(id)!;
  return validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || '(root)'} ${e.message}`);
}

const standaloneAjv = new Ajv2020({ strict: false, allErrors: true });
addFormats(standaloneAjv);
const served = new Map(
  Object.entries(WEBHOOK_EVENT_CATALOG).map(([type, entry]) => [type, standaloneAjv.compile(inlineSchemaRefs(entry.payload, [...SHARED_SCHEMAS, ...WEBHOOK_EVENT_SCHEMAS]))]),
);

let testDb: TestDatabase;
let app: DispatcherApp;
let sink: Awaited<ReturnType<typeof startSink>>;
let personalSecret: string;
let workspaceSecret: string;
let personal: Received[];
let workspace: Received[];

const suffix = () => randomBytes(5).toString('hex');
const headersOf = (request: Received) => request.headers as Record<string, string>;

/** Every event type either audience can receive, produced by the domain's own transitions. */
async function produceEveryEventType(db: Db, args: { entrantId: string; workspaceId: string; teamId: string; personalEndpointId: string; workspaceEndpointId: string }) {
  const { entrantId, workspaceId, teamId } = args;
  const team = userPrincipal(teamId);
  const others = await Promise.all([1, 2].map(() => insertUser(db, { handle: `other-${suffix()}` })));
  const raffle = async (spots: number, mechanic: 'collection' | 'application' = 'collection') => {
    const created = await createRaffle(db, {
      actor: team,
      workspaceId,
      body: { slug: `r-${suffix()}`, title: 'Every event', mechanic, allocationType: 'allowlist_gtd', visibility: 'public', spots },
    });
    return publishRaffle(db, { actor: team, raffleId: created.id }); // raffle.published + raffle.opened
  };
  const enter = (raffleId: string, userId: string) => enterRaffle(db, { raffle: { raffleId }, actor: userPrincipal(userId), source: 'web' }); // entry.created
  const winOf = async (raffleId: string, userId: string) => (await liveWinsOf(db, raffleId)).find((w) => w.userId === userId)!;

  const project = await createProject(db, { workspaceId, actor: userPrincipal(teamId), body: { slug: `p-${suffix()}`, name: 'Project' } }); // project.created
  await updateProject(db, { workspaceId, actor: userPrincipal(teamId), projectId: project.id, body: { name: 'Renamed' } }); // project.updated

  // An application raffle, so the team picks who wins: the entrant and one other, then the
  // entrant's win is disqualified and its position rerolled to the third entrant.
  const contest = await raffle(2, 'application');
  const [mine, second, third] = await Promise.all([entrantId, others[0]!.id, others[1]!.id].map((userId) => enter(contest.id, userId)));
  await closeRaffle(db, { actor: team, raffleId: contest.id }); // raffle.closed
  await drawRaffle(db, { actor: team, raffleId: contest.id, workspaceId, selection: { entryIds: [mine!.entry.id, second!.entry.id] } }); // raffle.drawn, (win|winner).selected
  const lost = await winOf(contest.id, entrantId);
  await disqualifyWin(db, { actor: team, workspaceId, raffleId: contest.id, winId: lost.id, reason: 'Broke the rules' }); // (win|winner).disqualified
  await rerollWin(db, { actor: team, workspaceId, raffleId: contest.id, winId: lost.id, entryId: third!.entry.id }); // winner.replaced, winner.selected
  await finalizeRaffle(db, { actor: team, raffleId: contest.id }); // raffle.finalized, winner.finalized

  // One spot, one entrant: a final win whose prize delivery moves.
  const prize = await raffle(1);
  await enter(prize.id, entrantId);
  // A beacon draw, its round signed at once by a local beacon's key.
  const beacon = localRoundSigner();
  await closeRaffle(db, { actor: team, raffleId: prize.id, beacon: beacon.chain });
  await drawRaffle(db, { actor: team, raffleId: prize.id, workspaceId, rounds: beacon });
  await finalizeRaffle(db, { actor: team, raffleId: prize.id }); // win.finalized
  await publishDueAllowlists(db, { clock: systemClock }); // raffle.allowlist_published (both raffles are allowlist_gtd)
  const won = await winOf(prize.id, entrantId);
  await setWinDelivery(db, { actor: team, workspaceId, raffleId: prize.id, winId: won.id, deliveryStatus: 'processing' }); // (win|winner).delivery_updated

  const disqualified = await raffle(1);
  const { entry } = await enter(disqualified.id, entrantId);
  await disqualifyEntry(db, { actor: team, workspaceId, raffleId: disqualified.id, entryId: entry.id, reason: 'Bot' }); // entry.updated
  await cancelRaffle(db, { actor: team, raffleId: disqualified.id }); // raffle.cancelled

  const withdrawn = await raffle(1);
  await enter(withdrawn.id, entrantId);
  await withdrawEntry(db, { raffle: { raffleId: withdrawn.id }, actor: userPrincipal(entrantId) }); // entry.withdrawn

  // A wallet linked by its signature on the run's local chain, then unlinked.
  const account = privateKeyToAccount(generatePrivateKey());
  const walletLinks = { settings: { origins: parseAllowedOrigins('http://localhost:*') as AllowedOrigin[], nonceTtlMs: 60_000, clockSkewMs: 0 }, chains: localChainReader() };
  const n = await issueWalletLinkNonce(db, { userId: entrantId, ...walletLinks });
  const message = createWalletLinkMessage({ address: account.address, chainId: n.chainIds[0]!, nonce: n.nonce, domain: n.domain, uri: n.uri });
  const wallet = await linkWallet(db, { userId: entrantId, ...walletLinks, body: { message, signature: await account.signMessage({ message }) } }); // wallet.linked
  await unlinkWallet(db, { userId: entrantId, chain: wallet.chain, address: wallet.address }); // wallet.unlinked
  await walletLinks.chains.close();

  await sendWebhookTestEvent(db, { owner: { kind: 'personal', userId: entrantId }, actor: userPrincipal(entrantId), endpointId: args.personalEndpointId });
  await sendWebhookTestEvent(db, { owner: { kind: 'workspace', workspaceId }, actor: userPrincipal(teamId), endpointId: args.workspaceEndpointId });
}

/** How many deliveries the outbox owes each endpoint: the dispatcher must have sent exactly these. */
async function owed(sql: TestDatabase['database']['sql'], userId: string, workspaceId: string, endpointIds: string[]): Promise<number> {
  const [row] = await sql<{ count: number }[]>`
    select count(*)::int as count from event_outbox
    where (user_id = ${userId} or workspace_id = ${workspaceId}) and (endpoint_id is null or endpoint_id = any(${endpointIds}))`;
  return row!.count;
}

beforeAll(async () => {
  testDb = await createTestDatabase();
  app = await buildTestApp(testDb.database, testDb.url, isolatedStreamNames());
  await app.dispatcher.consumerStarted;
  sink = await startSink();

  const { db } = testDb.database;
  const owners = await createOwners(db);
  const team = await insertUser(db, { handle: `team-${suffix()}` });
  await addWorkspaceMember(db, { workspaceId: owners.workspace.id, userId: team.id, role: 'owner' });
  const personalEndpoint = await owners.endpoint({ url: `${sink.url}/personal`, owner: 'personal', eventTypes: [...PERSONAL_WEBHOOK_EVENTS] });
  const workspaceEndpoint = await owners.endpoint({ url: `${sink.url}/workspace`, owner: 'workspace', eventTypes: [...WORKSPACE_WEBHOOK_EVENTS] });
  personalSecret = personalEndpoint.secret;
  workspaceSecret = workspaceEndpoint.secret;

  await produceEveryEventType(db, {
    entrantId: owners.user.id,
    workspaceId: owners.workspace.id,
    teamId: team.id,
    personalEndpointId: personalEndpoint.id,
    workspaceEndpointId: workspaceEndpoint.id,
  });
  const expected = await owed(testDb.database.sql, owners.user.id, owners.workspace.id, [personalEndpoint.id, workspaceEndpoint.id]);
  await sink.waitFor(expected, 30_000);
  personal = sink.received.filter((r) => r.path === '/personal');
  workspace = sink.received.filter((r) => r.path === '/workspace');
}, 120_000);

afterAll(async () => {
  await sink?.close();
  await app?.close();
  await testDb?.drop();
});

/** Compiles only if every event type narrows `data` to its own resource. */
function subjectOf(event: WebhookEvent): string {
  switch (event.type) {
    case 'raffle.published':
    case 'raffle.opened':
    case 'raffle.closed':
    case 'raffle.drawn':
    case 'raffle.finalized':
    case 'raffle.cancelled':
      return `${event.data.slug} ${event.data.status}`;
    case 'raffle.allowlist_published':
      return `${event.data.slug} v${event.data.version} ${event.data.root}`;
    case 'entry.created':
    case 'entry.updated':
    case 'entry.withdrawn':
      return `${event.data.id} ${event.data.status}`;
    case 'win.selected':
    case 'win.finalized':
    case 'win.disqualified':
    case 'win.delivery_updated':
      return `${event.data.raffle.slug} #${event.data.position}`;
    case 'winner.selected':
    case 'winner.finalized':
    case 'winner.disqualified':
    case 'winner.replaced':
    case 'winner.delivery_updated':
      return `${event.data.identitySnapshot.handle} #${event.data.position}`;
    case 'project.created':
    case 'project.updated':
      return event.data.name;
    case 'wallet.linked':
    case 'wallet.unlinked':
      return `${event.data.chain} ${event.data.verifiedBy}`;
    case 'webhook.test':
      return event.data.endpointId;
  }
}

describe('verifyWebhook on what the real dispatcher sent', () => {
  it('verifies every delivery with its endpoint\'s secret and returns the body as a typed event', () => {
    for (const [requests, secret] of [[personal, personalSecret], [workspace, workspaceSecret]] as const) {
      expect(requests.length).toBeGreaterThan(0);
      for (const request of requests) {
        const event = verifyWebhook(request.body, request.headers, secret);
        expect(event).toEqual(JSON.parse(request.body));
        expect(typeof subjectOf(event)).toBe('string');
      }
    }
  });

  it('delivered every event type of each audience, each body matching its catalogue schema', () => {
    const seen = (requests: Received[]) => new Set(requests.map((r) => (JSON.parse(r.body) as { type: string }).type));
    expect([...seen(personal)].sort()).toEqual([...PERSONAL_WEBHOOK_EVENTS].sort());
    expect([...seen(workspace)].sort()).toEqual([...WORKSPACE_WEBHOOK_EVENTS].sort());

    for (const [requests, entryView] of [[personal, 'SanitizedEntry'], [workspace, 'WorkspaceEntry']] as const) {
      for (const request of requests) {
        const body = JSON.parse(request.body) as { type: ContractEventType; data: unknown };
        const payloadId = String((WEBHOOK_EVENT_CATALOG[body.type].payload as { $id: string }).$id);
        expect(schemaErrors(payloadId, body), `${request.path} ${body.type}`).toEqual([]);
        expect(served.get(body.type)!(body), `${request.path} ${body.type} (served schema)`).toBe(true);
        // The one type both audiences share comes in each audience's own view.
        if (body.type.startsWith('entry.')) expect(schemaErrors(entryView, body.data), `${request.path} ${body.type}`).toEqual([]);
      }
    }
  });

  describe('refuses a real delivery that was tampered with', () => {
    const reasonOf = (run: () => unknown) => {
      try {
        run();
        return 'verified';
      } catch (error) {
        expect(error).toBeInstanceOf(WebhookVerificationError);
        return (error as WebhookVerificationError).reason;
      }
    };
    const sample = () => workspace[0]!;
    const sentAt = () => Number(headersOf(sample())['webhook-timestamp']) * 1000;

    it('a changed body', () => {
      const body = sample().body.replace('"timestamp":"', '"timestamp":"1');
      expect(reasonOf(() => verifyWebhook(body, sample().headers, workspaceSecret))).toBe('no_matching_signature');
    });
    it('the wrong secret', () => {
      expect(reasonOf(() => verifyWebhook(sample().body, sample().headers, personalSecret))).toBe('no_matching_signature');
    });
    it('too old and too new for the tolerance', () => {
      expect(reasonOf(() => verifyWebhook(sample().body, sample().headers, workspaceSecret, { now: () => sentAt() + 301_000 }))).toBe('timestamp_too_old');
      expect(reasonOf(() => verifyWebhook(sample().body, sample().headers, workspaceSecret, { now: () => sentAt() - 301_000 }))).toBe('timestamp_too_new');
      expect(reasonOf(() => verifyWebhook(sample().body, sample().headers, workspaceSecret, { now: () => sentAt() + 299_000 }))).toBe('verified');
    });
    it('a missing header', () => {
      for (const name of ['webhook-id', 'webhook-timestamp', 'webhook-signature']) {
        const headers = { ...headersOf(sample()), [name]: undefined };
        expect(reasonOf(() => verifyWebhook(sample().body, headers, workspaceSecret))).toBe('missing_header');
      }
    });
    it('a malformed signature header', () => {
      const headers = { ...headersOf(sample()), 'webhook-signature': headersOf(sample())['webhook-signature']!.replace('v1,', 'v1;') };
      expect(reasonOf(() => verifyWebhook(sample().body, headers, workspaceSecret))).toBe('malformed_signature_header');
    });
    it('is still verified with several secrets, the right one second', () => {
      expect(verifyWebhook(sample().body, sample().headers, [personalSecret, workspaceSecret]).type).toBe(JSON.parse(sample().body).type);
    });
  });

  it('verifies a delivery signed during a secret rotation with either secret alone', async () => {
    const { db } = testDb.database;
    const owners = await createOwners(db);
    const endpoint = await owners.endpoint({ url: `${sink.url}/rotating`, owner: 'personal', eventTypes: ['win.selected'] });
    const rotated = await rotateWebhookEndpointSecret(db, { owner: { kind: 'personal', userId: owners.user.id }, actor: userPrincipal(owners.user.id), endpointId: endpoint.id });
    registerSecret(rotated.secret);
    await sendWebhookTestEvent(db, { owner: { kind: 'personal', userId: owners.user.id }, actor: userPrincipal(owners.user.id), endpointId: endpoint.id });
    await sink.waitFor(sink.received.length + 1, 15_000);
    const request = sink.received.find((r) => r.path === '/rotating')!;
    expect(headersOf(request)['webhook-signature']!.split(' ')).toHaveLength(2);
    expect(verifyWebhook(request.body, request.headers, endpoint.secret).type).toBe('webhook.test');
    expect(verifyWebhook(request.body, request.headers, rotated.secret).type).toBe('webhook.test');
    expect(() => verifyWebhook(request.body, request.headers, personalSecret)).toThrow(WebhookVerificationError);
  });
});
