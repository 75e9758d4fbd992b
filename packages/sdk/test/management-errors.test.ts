import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RaffleApiError, RaffleConnectionError } from '../src/http/raffle-api-error.js';
import { RaffleManagementClient } from '../src/management/index.js';
import { collect, startManagement, uniqueSlug, type ManagementService } from './support/management-service.js';

let service: ManagementService;
let workspaceId: string;

beforeAll(async () => {
  service = await startManagement();
  workspaceId = service.tenant.workspace.id;
});

afterAll(async () => {
  await service?.close();
});

const draftParams = () => ({ slug: uniqueSlug(), title: 'Errors', mechanic: 'raffle' as const, allocationType: 'airdrop' as const, visibility: 'public' as const, spots: 1 });

/** A fetch that records each answer's X-Request-Id, to hold the error's requestId against. */
function recordingRequestIds() {
  const ids: Array<string | null> = [];
  const fetchFn: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    ids.push(response.headers.get('x-request-id'));
    return response;
  };
  return { ids, fetchFn };
}

async function failure(promise: Promise<unknown>): Promise<RaffleApiError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(RaffleApiError);
  return error as RaffleApiError;
}

describe('RaffleApiError from management', () => {
  it('409 with the code read from the message prefix, the request id and the raw body', async () => {
    const { ids, fetchFn } = recordingRequestIds();
    const owner = service.clientFor(service.tenant.owner.id, { fetch: fetchFn });
    const draft = await owner.workspaces.raffles.create(workspaceId, draftParams());

    const error = await failure(owner.workspaces.raffles.open(workspaceId, draft.id));
    expect(error.status).toBe(409);
    expect(error.code).toBe('RAFFLE_CANNOT_OPEN');
    expect(error.message).toMatch(/^RAFFLE_CANNOT_OPEN: /);
    expect(error.requestId).toBeTruthy();
    expect(error.requestId).toBe(ids.at(-1));
    expect(error.retryAfter).toBeNull();
    // The management body as sent: no `code` field of its own.
    expect(error.body).toMatchObject({ statusCode: 409, error: 'Conflict', message: error.message, requestId: error.requestId });
    expect(error.body).not.toHaveProperty('code');
  });

  it('404 for a raffle of another workspace, 403 for a member without the role', async () => {
    const owner = service.clientFor(service.tenant.owner.id);
    const missing = await failure(owner.workspaces.raffles.get(workspaceId, 'rfl_does_not_exist'));
    expect(missing.status).toBe(404);
    expect(missing.code).toBe('RAFFLE_NOT_FOUND');

    const member = service.clientFor(service.tenant.member.id);
    const forbidden = await failure(member.workspaces.raffles.create(workspaceId, draftParams()));
    expect(forbidden.status).toBe(403);
    expect(forbidden.code).toBe('FORBIDDEN');
    expect(forbidden.requestId).toBeTruthy();
  });

  it('400 VALIDATION_FAILED for a body the route refuses', async () => {
    // Straight to the service: the document refuses spots=0, and Prism would answer it itself.
    const owner = service.clientFor(service.tenant.owner.id, { baseUrl: service.directUrl });
    const error = await failure(owner.workspaces.raffles.create(workspaceId, { ...draftParams(), spots: 0 }));
    expect(error.status).toBe(400);
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(error.message).toMatch(/^VALIDATION_FAILED: body\.spots/);
    expect(error.requestId).toBeTruthy();
  });

  it('401 SESSION_TOKEN_INVALID with a bad token', async () => {
    const { ids, fetchFn } = recordingRequestIds();
    const stranger = new RaffleManagementClient({ token: 'not-a-jwt', baseUrl: service.baseUrl, fetch: fetchFn });
    const error = await failure(stranger.capabilities.get());
    expect(error.status).toBe(401);
    expect(error.code).toBe('SESSION_TOKEN_INVALID');
    expect(error.requestId).toBe(ids.at(-1));
    expect(error.message).toBe('SESSION_TOKEN_INVALID: the session token is invalid or expired');
    // Refused before any retry: a 401 is not worth sending again.
    expect(ids).toHaveLength(1);
  });
});

describe('options', () => {
  it('a client without a token is refused at construction, before any request', () => {
    expect(() => new RaffleManagementClient({ token: '' })).toThrow(TypeError);
  });

  it("baseUrl '' asks for same-origin paths (a console served beside the API), the default the local service", async () => {
    const asked: string[] = [];
    const recording: typeof fetch = async (input) => {
      asked.push(String(input));
      return new Response('{}', { status: 200, headers: { 'content-type': 'application/json' } });
    };
    await new RaffleManagementClient({ token: 't', baseUrl: '', fetch: recording }).capabilities.get();
    await new RaffleManagementClient({ token: 't', fetch: recording }).capabilities.get();
    expect(asked).toEqual(['/api/developer/capabilities', 'http://localhost:3001/api/developer/capabilities']);
  });
});

describe('retries', () => {
  it('a write without an Idempotency-Key whose answer is lost is not sent again', async () => {
    const draft = await service.clientFor(service.tenant.owner.id).workspaces.raffles.create(workspaceId, draftParams());
    let calls = 0;
    const loseAnswers: typeof fetch = async (input, init) => {
      calls++;
      await fetch(input, init); // reaches the server, which acts on it
      throw new TypeError('socket hang up');
    };
    const owner = service.clientFor(service.tenant.owner.id, { fetch: loseAnswers, maxRetries: 3 });
    await expect(owner.workspaces.raffles.publish(workspaceId, draft.id)).rejects.toBeInstanceOf(RaffleConnectionError);
    expect(calls).toBe(1);
  });

  it('a create whose answers are lost is sent again with the same Idempotency-Key, and makes one raffle', async () => {
    const keys: Array<string | null> = [];
    const loseAnswers: typeof fetch = async (input, init) => {
      keys.push(new Headers(init?.headers).get('idempotency-key'));
      await fetch(input, init); // reaches the server, which acts on it (then replays it)
      throw new TypeError('socket hang up');
    };
    const owner = service.clientFor(service.tenant.owner.id, { fetch: loseAnswers, maxRetries: 3 });
    const params = draftParams();
    await expect(owner.workspaces.raffles.create(workspaceId, params)).rejects.toBeInstanceOf(RaffleConnectionError);
    expect(keys).toHaveLength(4);
    expect(new Set(keys).size).toBe(1);
    const created = (await collect(service.clientFor(service.tenant.owner.id).workspaces.raffles.list(workspaceId))).filter((r) => r.slug === params.slug);
    expect(created).toHaveLength(1);
  });

  it('a GET is retried after a 503 and succeeds', async () => {
    let calls = 0;
    const flaky: typeof fetch = async (input, init) => {
      calls++;
      if (calls === 1) return new Response(JSON.stringify({ statusCode: 503, error: 'Service Unavailable', message: 'SERVICE_UNAVAILABLE: try again', requestId: null }), { status: 503, headers: { 'content-type': 'application/json', 'retry-after': '0' } });
      return fetch(input, init);
    };
    const owner = service.clientFor(service.tenant.owner.id, { fetch: flaky });
    const capabilities = await owner.capabilities.get();
    expect(capabilities.personalApiScopes.length).toBeGreaterThan(0);
    expect(calls).toBe(2);
  });
});
