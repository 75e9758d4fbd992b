import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWalletLinkMessage, type RaffleManagementClient } from '../src/index.js';
import { collect, startManagement, type ManagementService } from './support/management-service.js';

let service: ManagementService;
let mgmt: RaffleManagementClient;

beforeAll(async () => {
  service = await startManagement();
  mgmt = service.clientFor((await service.newUser()).id);
});

afterAll(async () => {
  await service?.close();
});

describe('mgmt.me.wallets', () => {
  it('nonce(), createWalletLinkMessage, a signature, link(); list() shows it and unlink() removes it', async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const n = await mgmt.me.wallets.nonce();
    expect(n.chainIds.length).toBeGreaterThan(0);
    const message = createWalletLinkMessage({ address: account.address, chainId: n.chainIds[0]!, nonce: n.nonce, domain: n.domain, uri: n.uri, statement: n.statement });
    const linked = await mgmt.me.wallets.link({ message, signature: await account.signMessage({ message }) });
    expect(linked).toMatchObject({ address: account.address, chainId: n.chainIds[0], verified: true, verifiedBy: 'siwe' });

    expect((await collect(mgmt.me.wallets.list({ limit: 1 }))).map((w) => w.address)).toEqual([account.address]);
    expect((await mgmt.me.get()).wallets).toEqual([{ chain: linked.chain, address: account.address, verified: true }]);

    await expect(mgmt.me.wallets.unlink(linked.chain, linked.address)).resolves.toBeUndefined();
    expect(await collect(mgmt.me.wallets.list())).toEqual([]);
    await expect(mgmt.me.wallets.unlink(linked.chain, linked.address)).rejects.toMatchObject({ status: 404, code: 'WALLET_NOT_FOUND' });
  });

  it('a reused nonce is a RaffleApiError 409 SIWE_NONCE_INVALID', async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const n = await mgmt.me.wallets.nonce();
    const message = createWalletLinkMessage({ address: account.address, chainId: n.chainIds[0]!, nonce: n.nonce, domain: n.domain, uri: n.uri });
    const body = { message, signature: await account.signMessage({ message }) };
    await mgmt.me.wallets.link(body);
    await expect(mgmt.me.wallets.link(body)).rejects.toMatchObject({ status: 409, code: 'SIWE_NONCE_INVALID' });
  });
});
