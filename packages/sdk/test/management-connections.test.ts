import { startLocalSocial, type LocalSocial } from '@raffle/service-kit/testing/local-social';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RaffleManagementClient } from '../src/index.js';
import { startManagement, type ManagementService } from './support/management-service.js';

let social: LocalSocial;
let service: ManagementService;
let mgmt: RaffleManagementClient;

beforeAll(async () => {
  social = await startLocalSocial();
  service = await startManagement(social.env);
  mgmt = service.clientFor((await service.newUser()).id);
});

afterAll(async () => {
  await service?.close();
  await social?.close();
});

describe('mgmt.me.connections', () => {
  it('start(), the consent, complete(); list() shows the account and unlink() removes it', async () => {
    expect(await mgmt.me.connections.list()).toEqual({ data: [], providers: ['discord', 'x'] });
    const started = await mgmt.me.connections.start('x');
    const back = await social.consent(started.authorizationUrl, 'carol');
    const linked = await mgmt.me.connections.complete('x', { state: back.state!, code: back.code! });
    expect(linked).toMatchObject({ provider: 'x', accountName: 'carol', status: 'active' });
    expect((await mgmt.me.connections.list()).data).toEqual([linked]);
    await expect(mgmt.me.connections.unlink('x')).resolves.toBeUndefined();
    await expect(mgmt.me.connections.unlink('x')).rejects.toMatchObject({ status: 404, code: 'CONNECTION_NOT_FOUND' });
  });

  it('a refused callback is a RaffleApiError with its code: the user declined, then the state is used', async () => {
    const started = await mgmt.me.connections.start('discord');
    const back = await social.consent(started.authorizationUrl, 'deny');
    const body = { state: back.state!, error: back.error! };
    await expect(mgmt.me.connections.complete('discord', body)).rejects.toMatchObject({ status: 403, code: 'OAUTH_ACCESS_DENIED' });
    await expect(mgmt.me.connections.complete('discord', body)).rejects.toMatchObject({ status: 409, code: 'OAUTH_STATE_USED' });
  });
});
