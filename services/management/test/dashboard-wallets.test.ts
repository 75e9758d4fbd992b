import { randomBytes } from 'node:crypto';
import { deployOwnerWallet } from '@raffle/chain/local';
import { insertUser } from '@raffle/db';
import { localChainInfo } from '@raffle/service-kit/testing';
import { createSiweMessage } from 'viem/siwe';
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ManagementApp } from '../src/app.js';
import { expectManagementError, expectSchema } from './support/contract.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { tokenFor } from './support/jwt.js';
import { registerSecret } from './support/log-scan.js';
import { buildTestApp } from './support/app.js';
import { walletLinksOf } from '../src/decorations.js';

let testDb: TestDatabase;
let app: ManagementApp;
/** The run's local chain (anvil), as the app's chain reader names it. */
const chain = { name: 'anvil', chainId: 0 };

const ORIGIN = 'http://127.0.0.1:3003';

beforeAll(async () => {
  testDb = await createTestDatabase();
  app = await buildTestApp(testDb.database, testDb.url, { SIWE_ALLOWED_ORIGINS: 'http://127.0.0.1:*' });
  chain.chainId = await walletLinksOf(app).chains.chainIdOf(chain.name);
});

afterAll(async () => {
  await app?.close();
  await testDb?.drop();
});

const BASE = '/api/dashboard/me/wallets';
const handle = (tag: string) => `${tag}-${randomBytes(5).toString('hex')}`;
const auth = (userId: string) => ({ authorization: `Bearer ${tokenFor(userId)}` });

async function newUser(tag = 'holder') {
  return insertUser(testDb.database.db, { handle: handle(tag) });
}

/** A fresh key each time: an address of this file's own, registered so the log scan fails if it shows up. */
function freshAccount(): PrivateKeyAccount {
  const account = privateKeyToAccount(generatePrivateKey());
  registerSecret(account.address);
  registerSecret(account.address.toLowerCase());
  return account;
}

async function askNonce(userId: string) {
  const res = await app.inject({ method: 'POST', url: `${BASE}/nonce`, headers: { ...auth(userId), origin: ORIGIN } });
  expect(res.statusCode, res.body).toBe(201);
  expectSchema('WalletLinkNonce', res.json());
  return res.json() as { nonce: string; expiresAt: string; domain: string; uri: string; chainIds: number[]; statement: string };
}

type MessageOverrides = Partial<Parameters<typeof createSiweMessage>[0]>;

async function signedLink(userId: string, account: PrivateKeyAccount, overrides: MessageOverrides = {}, address = account.address) {
  const nonce = await askNonce(userId);
  const message = createSiweMessage({
    domain: nonce.domain,
    uri: nonce.uri,
    address,
    chainId: chain.chainId,
    nonce: nonce.nonce,
    version: '1',
    statement: nonce.statement,
    issuedAt: new Date(),
    ...overrides,
  });
  const signature = await account.signMessage({ message });
  return { message, signature, nonce };
}

const link = (userId: string, body: { message: string; signature: string }) =>
  app.inject({ method: 'POST', url: BASE, headers: auth(userId), payload: { message: body.message, signature: body.signature } });

const list = async (userId: string) => {
  const res = await app.inject({ method: 'GET', url: BASE, headers: auth(userId) });
  expect(res.statusCode, res.body).toBe(200);
  expectSchema('LinkedWalletPage', res.json());
  return (res.json() as { data: { chain: string; address: string; verifiedBy: string }[] }).data;
};

const profileWallets = async (userId: string) =>
  ((await app.inject({ method: 'GET', url: '/api/dashboard/me', headers: auth(userId) })).json() as { wallets: unknown[] }).wallets;

const codeOf = (res: { statusCode: number; headers: Record<string, unknown>; body: string; json: () => unknown }, status: number) =>
  String(expectManagementError(res, status).message).split(':')[0];

describe('POST /api/dashboard/me/wallets/nonce', () => {
  it("answers a fresh nonce with the console's domain and URI, the supported chain ids and when it expires", async () => {
    const user = await newUser();
    const first = await askNonce(user.id);
    const second = await askNonce(user.id);
    expect(first.nonce).not.toBe(second.nonce);
    expect(first.nonce).toMatch(/^[0-9a-f]{32}$/);
    expect(first).toMatchObject({ domain: '127.0.0.1:3003', uri: ORIGIN, chainIds: [chain.chainId] });
    const ttl = Date.parse(first.expiresAt) - Date.now();
    expect(ttl).toBeGreaterThan(9 * 60_000);
    expect(ttl).toBeLessThanOrEqual(10 * 60_000);
  });
});

describe('POST /api/dashboard/me/wallets', () => {
  it('links a wallet whose signature recovers to the address: verified, by siwe, with its chain id, and shown in the profile', async () => {
    const user = await newUser();
    const account = freshAccount();
    const res = await link(user.id, await signedLink(user.id, account));
    expect(res.statusCode, res.body).toBe(201);
    expectSchema('LinkedWallet', res.json());
    expect(res.json()).toMatchObject({ chain: chain.name, chainId: chain.chainId, address: account.address, verified: true, verifiedBy: 'siwe' });
    expect(await list(user.id)).toEqual([expect.objectContaining({ address: account.address, verifiedBy: 'siwe' })]);
    expect(await profileWallets(user.id)).toEqual([{ chain: chain.name, address: account.address, verified: true }]);
  });

  it('relinking the same wallet keeps one row and refreshes verifiedAt', async () => {
    const user = await newUser();
    const account = freshAccount();
    const first = (await link(user.id, await signedLink(user.id, account))).json() as { verifiedAt: string };
    const again = await link(user.id, await signedLink(user.id, account));
    expect(again.statusCode, again.body).toBe(201);
    expect(Date.parse((again.json() as { verifiedAt: string }).verifiedAt)).toBeGreaterThanOrEqual(Date.parse(first.verifiedAt));
    expect(await list(user.id)).toHaveLength(1);
  });

  it('links a contract wallet (ERC-1271) whose contract accepts its owner\'s signature: verifiedBy erc1271', async () => {
    const user = await newUser();
    const owner = freshAccount();
    const contract = await deployOwnerWallet(localChainInfo(), owner);
    registerSecret(contract);
    registerSecret(contract.toLowerCase());
    const res = await link(user.id, await signedLink(user.id, owner, {}, contract));
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ chain: chain.name, chainId: chain.chainId, address: contract, verified: true, verifiedBy: 'erc1271' });
  });

  it("refuses a contract wallet's link signed by a key that is not its owner with 400 SIWE_SIGNATURE_INVALID", async () => {
    const user = await newUser();
    const contract = await deployOwnerWallet(localChainInfo(), freshAccount());
    const res = await link(user.id, await signedLink(user.id, freshAccount(), {}, contract));
    expect(codeOf(res, 400)).toBe('SIWE_SIGNATURE_INVALID');
  });

  it('refuses a signature by another key with 400 SIWE_SIGNATURE_INVALID and links nothing', async () => {
    const user = await newUser();
    const claimed = freshAccount();
    const signer = freshAccount();
    const res = await link(user.id, await signedLink(user.id, signer, {}, claimed.address));
    expect(codeOf(res, 400)).toBe('SIWE_SIGNATURE_INVALID');
    expect(await list(user.id)).toEqual([]);
  });

  it('refuses a signature of a different text (the message was edited after signing) with 400 SIWE_SIGNATURE_INVALID', async () => {
    const user = await newUser();
    const account = freshAccount();
    const signed = await signedLink(user.id, account);
    const res = await link(user.id, { ...signed, message: signed.message.replace(signed.nonce.statement, 'Something else entirely.') });
    expect(codeOf(res, 400)).toBe('SIWE_SIGNATURE_INVALID');
  });

  it('refuses a reused nonce with 409 SIWE_NONCE_INVALID', async () => {
    const user = await newUser();
    const signed = await signedLink(user.id, freshAccount());
    expect((await link(user.id, signed)).statusCode).toBe(201);
    expect(codeOf(await link(user.id, signed), 409)).toBe('SIWE_NONCE_INVALID');
  });

  it('refuses a nonce issued to another user with 409 SIWE_NONCE_INVALID', async () => {
    const [owner, thief] = [await newUser(), await newUser('thief')];
    const account = freshAccount();
    const signed = await signedLink(owner.id, account);
    expect(codeOf(await link(thief.id, signed), 409)).toBe('SIWE_NONCE_INVALID');
    // The owner's nonce is still unused.
    expect((await link(owner.id, signed)).statusCode).toBe(201);
  });

  it('refuses a nonce never issued with 409 SIWE_NONCE_INVALID', async () => {
    const user = await newUser();
    const account = freshAccount();
    const signed = await signedLink(user.id, account, { nonce: 'abcdef0123456789abcdef0123456789' });
    expect(codeOf(await link(user.id, signed), 409)).toBe('SIWE_NONCE_INVALID');
  });

  it('lets exactly one of two concurrent links with one nonce through', async () => {
    const user = await newUser();
    const signed = await signedLink(user.id, freshAccount());
    const answers = await Promise.all(Array.from({ length: 6 }, () => link(user.id, signed)));
    const statuses = answers.map((r) => r.statusCode).sort();
    expect(statuses).toEqual([201, 409, 409, 409, 409, 409]);
    for (const refused of answers.filter((r) => r.statusCode === 409)) expect(codeOf(refused, 409)).toBe('SIWE_NONCE_INVALID');
  });

  it('refuses a message whose expirationTime has passed with 409 SIWE_MESSAGE_EXPIRED', async () => {
    const user = await newUser();
    const signed = await signedLink(user.id, freshAccount(), { issuedAt: new Date(Date.now() - 120_000), expirationTime: new Date(Date.now() - 60_000) });
    expect(codeOf(await link(user.id, signed), 409)).toBe('SIWE_MESSAGE_EXPIRED');
  });

  it('refuses a message dated in the future (Issued At or Not Before) with 409 SIWE_MESSAGE_EXPIRED', async () => {
    const user = await newUser();
    const future = new Date(Date.now() + 3_600_000);
    expect(codeOf(await link(user.id, await signedLink(user.id, freshAccount(), { issuedAt: future })), 409)).toBe('SIWE_MESSAGE_EXPIRED');
    expect(codeOf(await link(user.id, await signedLink(user.id, freshAccount(), { notBefore: future })), 409)).toBe('SIWE_MESSAGE_EXPIRED');
  });

  it('refuses an expired nonce with 409 SIWE_MESSAGE_EXPIRED', async () => {
    const user = await newUser();
    const signed = await signedLink(user.id, freshAccount());
    await testDb.database.sql`update wallet_link_nonces set expires_at = now() - interval '1 second' where nonce = ${signed.nonce.nonce}`;
    expect(codeOf(await link(user.id, signed), 409)).toBe('SIWE_MESSAGE_EXPIRED');
  });

  it("refuses a message for another site's domain or URI with 403 SIWE_DOMAIN_MISMATCH, before the nonce is used", async () => {
    const user = await newUser();
    const account = freshAccount();
    const phished = await signedLink(user.id, account, { domain: 'evil.example', uri: 'https://evil.example' });
    expect(codeOf(await link(user.id, phished), 403)).toBe('SIWE_DOMAIN_MISMATCH');
    const mixed = await signedLink(user.id, account, { uri: 'https://evil.example/login' });
    expect(codeOf(await link(user.id, mixed), 403)).toBe('SIWE_DOMAIN_MISMATCH');
    const otherPort = await signedLink(user.id, account, { domain: 'localhost:3003', uri: 'http://localhost:3003' });
    expect(codeOf(await link(user.id, otherPort), 403)).toBe('SIWE_DOMAIN_MISMATCH');
  });

  it('refuses a chain id this platform does not read with 400 SIWE_CHAIN_UNSUPPORTED', async () => {
    const user = await newUser();
    const signed = await signedLink(user.id, freshAccount(), { chainId: 999_999_001 });
    expect(codeOf(await link(user.id, signed), 400)).toBe('SIWE_CHAIN_UNSUPPORTED');
  });

  it('refuses text that is not an EIP-4361 message with 400 SIWE_MESSAGE_INVALID', async () => {
    const user = await newUser();
    const account = freshAccount();
    const signature = await account.signMessage({ message: 'hello' });
    expect(codeOf(await link(user.id, { message: 'hello', signature }), 400)).toBe('SIWE_MESSAGE_INVALID');
    const signed = await signedLink(user.id, account);
    const noDate = signed.message.replace(/Issued At: .*/, 'Issued At: yesterday');
    expect(codeOf(await link(user.id, { message: noDate, signature: signed.signature }), 400)).toBe('SIWE_MESSAGE_INVALID');
  });

  it('refuses a malleated (high-s) signature with 400 SIWE_SIGNATURE_INVALID and links nothing', async () => {
    const user = await newUser();
    const signed = await signedLink(user.id, freshAccount());
    // (r, n - s, the other v) recovers to the same key: the malleable twin EIP-2 outlawed.
    const n = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
    const r = signed.signature.slice(2, 66);
    const s = BigInt(`0x${signed.signature.slice(66, 130)}`);
    const v = Number.parseInt(signed.signature.slice(130, 132), 16);
    const twin = `0x${r}${(n - s).toString(16).padStart(64, '0')}${(v === 27 ? 28 : 27).toString(16)}`;
    expect(codeOf(await link(user.id, { message: signed.message, signature: twin }), 400)).toBe('SIWE_SIGNATURE_INVALID');
    expect(await list(user.id)).toEqual([]);
  });

  it('refuses a message that repeats a field with 400 SIWE_MESSAGE_INVALID, even correctly signed', async () => {
    const user = await newUser();
    const account = freshAccount();
    const nonce = await askNonce(user.id);
    const base = { domain: nonce.domain, uri: nonce.uri, address: account.address, chainId: chain.chainId, nonce: nonce.nonce, version: '1' as const, statement: nonce.statement, issuedAt: new Date() };
    const later = new Date(Date.now() + 3_600_000);
    const repeats = [
      // The parser keeps the last URI, a wallet may show the first.
      createSiweMessage(base).replace(`URI: ${nonce.uri}`, `URI: ${nonce.uri}\nURI: ${nonce.uri}`),
      // The parser keeps the first Expiration Time, a wallet may show the second.
      createSiweMessage({ ...base, expirationTime: later }).replace(/(Expiration Time: .*)/, '$1\nExpiration Time: 2000-01-01T00:00:00.000Z'),
    ];
    for (const message of repeats) {
      expect(codeOf(await link(user.id, { message, signature: await account.signMessage({ message }) }), 400), message).toBe('SIWE_MESSAGE_INVALID');
    }
    expect(await list(user.id)).toEqual([]);
  });

  it('refuses a message whose Issued At is before its nonce was issued with 409 SIWE_MESSAGE_EXPIRED', async () => {
    const user = await newUser();
    const signed = await signedLink(user.id, freshAccount(), { issuedAt: new Date(Date.now() - 30 * 86_400_000) });
    expect(codeOf(await link(user.id, signed), 409)).toBe('SIWE_MESSAGE_EXPIRED');
    expect(await list(user.id)).toEqual([]);
  });

  it('refuses a signature that is not hex with 400 and the management body', async () => {
    const user = await newUser();
    const signed = await signedLink(user.id, freshAccount());
    const res = await link(user.id, { message: signed.message, signature: 'not-a-signature' });
    expectManagementError(res, 400);
  });
});

describe('the wallet-link rate limit', () => {
  it('counts nonces and links together per user and answers 429 RATE_LIMITED naming the wallet-link policy', async () => {
    const limited = await buildTestApp(testDb.database, testDb.url, { SIWE_ALLOWED_ORIGINS: 'http://127.0.0.1:*', RATE_LIMIT_WALLET_LINK_MAX: '2' });
    try {
      const [user, other] = [await newUser(), await newUser('other')];
      const nonce = () => limited.inject({ method: 'POST', url: `${BASE}/nonce`, headers: auth(user.id) });
      expect((await nonce()).statusCode).toBe(201);
      expect((await limited.inject({ method: 'POST', url: BASE, headers: auth(user.id), payload: { message: 'x', signature: '0x00' } })).statusCode).toBe(400);
      const refused = await nonce();
      expect(String(expectManagementError(refused, 429).message)).toMatch(/^RATE_LIMITED: the "wallet-link" limit/);
      // Another user's budget is their own.
      expect((await limited.inject({ method: 'POST', url: `${BASE}/nonce`, headers: auth(other.id) })).statusCode).toBe(201);
    } finally {
      await limited.close();
    }
  });
});

describe('wallet events', () => {
  it("records wallet.linked and wallet.unlinked for the owner only, with the wallet as the owner's list shows it", async () => {
    const user = await newUser();
    const account = freshAccount();
    const linked = (await link(user.id, await signedLink(user.id, account))).json() as Record<string, unknown>;
    expect((await app.inject({ method: 'DELETE', url: `${BASE}/${chain.name}/${account.address}`, headers: auth(user.id) })).statusCode).toBe(204);
    const rows = await testDb.database.sql<{ type: string; user_id: string | null; workspace_id: string | null; payload: string }[]>`
      select type, user_id, workspace_id, payload from event_outbox where payload like ${`%${account.address}%`} order by seq`;
    expect(rows.map((r) => [r.type, r.user_id, r.workspace_id])).toEqual([
      ['wallet.linked', user.id, null],
      ['wallet.unlinked', user.id, null],
    ]);
    const [linkedEvent, unlinkedEvent] = rows.map((r) => JSON.parse(r.payload) as { type: string; data: unknown });
    expectSchema('LinkedWallet', linkedEvent!.data);
    expectSchema('LinkedWallet', unlinkedEvent!.data);
    expect(linkedEvent!.data).toEqual(linked);
    expect(unlinkedEvent!.data).toMatchObject({ address: account.address, chain: chain.name });
  });
});

describe('GET and DELETE /api/dashboard/me/wallets', () => {
  it('pages through the wallets by chain then address', async () => {
    const user = await newUser();
    for (let i = 0; i < 3; i++) expect((await link(user.id, await signedLink(user.id, freshAccount()))).statusCode).toBe(201);
    const first = await app.inject({ method: 'GET', url: `${BASE}?limit=2`, headers: auth(user.id) });
    const page1 = first.json() as { data: { address: string }[]; pagination: { nextCursor: string; hasMore: boolean } };
    expect(page1.data).toHaveLength(2);
    expect(page1.pagination.hasMore).toBe(true);
    const second = await app.inject({ method: 'GET', url: `${BASE}?limit=2&cursor=${encodeURIComponent(page1.pagination.nextCursor)}`, headers: auth(user.id) });
    const page2 = second.json() as { data: { address: string }[]; pagination: { hasMore: boolean } };
    expect(page2.data).toHaveLength(1);
    expect(page2.pagination.hasMore).toBe(false);
    const addresses = [...page1.data, ...page2.data].map((w) => w.address);
    expect(addresses).toEqual([...addresses].sort());
  });

  it('unlinks a wallet (204), in any letter case, and the profile drops it; a second unlink is 404 WALLET_NOT_FOUND', async () => {
    const user = await newUser();
    const account = freshAccount();
    expect((await link(user.id, await signedLink(user.id, account))).statusCode).toBe(201);
    const url = `${BASE}/${chain.name}/${account.address.toLowerCase()}`;
    const res = await app.inject({ method: 'DELETE', url, headers: auth(user.id) });
    expect(res.statusCode, res.body).toBe(204);
    expect(await list(user.id)).toEqual([]);
    expect(await profileWallets(user.id)).toEqual([]);
    expect(codeOf(await app.inject({ method: 'DELETE', url, headers: auth(user.id) }), 404)).toBe('WALLET_NOT_FOUND');
  });

  it("shows and unlinks only the caller's own wallets: another user sees none of mine and gets 404 unlinking it", async () => {
    const [me, other] = [await newUser(), await newUser('other')];
    const account = freshAccount();
    expect((await link(me.id, await signedLink(me.id, account))).statusCode).toBe(201);
    expect(await list(other.id)).toEqual([]);
    const res = await app.inject({ method: 'DELETE', url: `${BASE}/${chain.name}/${account.address}`, headers: auth(other.id) });
    expect(codeOf(res, 404)).toBe('WALLET_NOT_FOUND');
    expect(await list(me.id)).toHaveLength(1);
  });

  it('lets two users link the same wallet (each proved it); raffles flag entries sharing it', async () => {
    const [first, second] = [await newUser(), await newUser('second')];
    const account = freshAccount();
    expect((await link(first.id, await signedLink(first.id, account))).statusCode).toBe(201);
    expect((await link(second.id, await signedLink(second.id, account))).statusCode).toBe(201);
  });

  it('refuses every wallet route without a session (401 SESSION_TOKEN_MISSING) or with a bad one (401 SESSION_TOKEN_INVALID)', async () => {
    const routes = [
      { method: 'POST' as const, url: `${BASE}/nonce` },
      { method: 'POST' as const, url: BASE, payload: { message: 'x', signature: '0x00' } },
      { method: 'GET' as const, url: BASE },
      { method: 'DELETE' as const, url: `${BASE}/anvil/0x0000000000000000000000000000000000000001` },
    ];
    for (const route of routes) {
      expect(codeOf(await app.inject(route), 401), route.url).toBe('SESSION_TOKEN_MISSING');
      expect(codeOf(await app.inject({ ...route, headers: { authorization: 'Bearer not.a.token' } }), 401), route.url).toBe('SESSION_TOKEN_INVALID');
    }
  });
});
