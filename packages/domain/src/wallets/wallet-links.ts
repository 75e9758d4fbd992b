import { randomBytes } from 'node:crypto';
import { ChainUnavailable, type Address, type ChainReader } from '@raffle/chain';
import { DASHBOARD_PAGE_SIZE, type LinkedWallet, type LinkWalletBody, type WalletLinkNonce } from '@raffle/contracts';
import {
  appendEvents,
  consumeWalletLinkNonce,
  deleteExpiredWalletLinkNonces,
  deleteUserWallet,
  insertWalletLinkNonce,
  pageUserWallets,
  rerenderProfile,
  upsertVerifiedWallet,
  type Db,
  type WalletKey,
} from '@raffle/db';
import { getAddress, verifyMessage as recoversTo } from 'viem';
import { systemClock, type Clock } from '../clock.js';
import { DomainError } from '../errors.js';
import { cursorBinding, readPageRequest, toPage, type Page, type PageRequest } from '../pagination/index.js';
import { messageOriginAllowed, suggestedOrigin, type AllowedOrigin } from './allowed-origins.js';
import { toLinkedWallet } from './linked-wallet.js';
import { readWalletLinkMessage, type WalletLinkMessage } from './wallet-link-message.js';

/** What linking asks of the chain reader (@raffle/chain): the configured chains and the ERC-1271 check. */
export type WalletLinkChains = Pick<ChainReader, 'chains' | 'chainNameOf' | 'chainIdOf' | 'verifyMessage'>;

export type WalletLinkSettings = {
  /** The console's origins (SIWE_ALLOWED_ORIGINS): a message's domain and URI must be one of them. */
  origins: readonly AllowedOrigin[];
  /** How long an issued nonce may be used. */
  nonceTtlMs: number;
  /** How far ahead of this clock a message's Issued At / Not Before may be (the signer's clock drifts). */
  clockSkewMs: number;
};

export const WALLET_LINK_STATEMENT = 'Link this wallet to your Raffle account. This proves you hold it; it grants no permission and costs nothing.';

/** Nonces expired this long are deleted when the user asks for another (an older one can only be refused). */
const EXPIRED_NONCE_RETENTION_MS = 24 * 60 * 60 * 1000;

type WalletLinkArgs = { userId: string; settings: WalletLinkSettings; chains: WalletLinkChains; clock?: Clock };

const chainUnavailable = (chain: string | number) =>
  new DomainError('CHAIN_UNAVAILABLE', `chain ${chain} did not answer; nothing was linked and the nonce is used, ask for another and retry later`);

/** The chain ids this platform reads, for the signer to pick from; a chain that does not answer now is left out. */
async function supportedChainIds(chains: WalletLinkChains): Promise<number[]> {
  const ids = await Promise.allSettled(chains.chains.map((name) => chains.chainIdOf(name)));
  return ids.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
}

/** A fresh single-use nonce for the user, with what the message to sign must say. */
export async function issueWalletLinkNonce(db: Db, args: WalletLinkArgs & { requestOrigin?: string }): Promise<WalletLinkNonce> {
  const now = (args.clock ?? systemClock).now();
  // 128 random bits as 32 hex characters: EIP-4361 asks for at least 8 alphanumerics.
  const nonce = randomBytes(16).toString('hex');
  const expiresAt = new Date(now.getTime() + args.settings.nonceTtlMs);
  await db.transaction(async (tx) => {
    await deleteExpiredWalletLinkNonces(tx, { userId: args.userId, before: new Date(now.getTime() - EXPIRED_NONCE_RETENTION_MS) });
    await insertWalletLinkNonce(tx, { nonce, userId: args.userId, issuedAt: now, expiresAt });
  });
  const origin = suggestedOrigin(args.settings.origins, args.requestOrigin);
  return {
    nonce,
    expiresAt: expiresAt.toISOString(),
    domain: origin?.host ?? '',
    uri: origin?.origin ?? '',
    chainIds: await supportedChainIds(args.chains),
    statement: WALLET_LINK_STATEMENT,
    version: '1',
  };
}

/**
 * Links the wallet a signed EIP-4361 message names, checking, in this order and each with its own
 * code: the message's shape, no field twice (SIWE_MESSAGE_INVALID), a malleated high-s signature
 * (SIWE_SIGNATURE_INVALID), its domain and URI (SIWE_DOMAIN_MISMATCH), its chain id
 * (SIWE_CHAIN_UNSUPPORTED), its nonce — consumed here, whatever follows — (SIWE_NONCE_INVALID), its
 * times — Issued At neither ahead of this clock nor before the nonce was issued — and the nonce's
 * expiry (SIWE_MESSAGE_EXPIRED), then the signature (SIWE_SIGNATURE_INVALID).
 *
 * The signature is first recovered locally (an EOA, no RPC); only when it does not recover to the
 * address is the chain asked, through the address's ERC-1271 isValidSignature (a contract wallet).
 * The nonce is consumed before that check on purpose: no RPC call runs inside a transaction, and a
 * refused attempt cannot be retried with the same nonce.
 */
export async function linkWallet(db: Db, args: WalletLinkArgs & { body: LinkWalletBody }): Promise<LinkedWallet> {
  const clock = args.clock ?? systemClock;
  const message = readWalletLinkMessage(args.body.message);
  if (isHighS(args.body.signature)) {
    throw new DomainError('SIWE_SIGNATURE_INVALID', "the signature's s is in the upper half of the curve order (a malleated signature, refused since EIP-2); sign again");
  }
  if (!messageOriginAllowed(args.settings.origins, message)) {
    throw new DomainError('SIWE_DOMAIN_MISMATCH', `the message's domain and URI must be the console's (${message.domain} is not)`);
  }
  let chain: string | undefined;
  try {
    chain = await args.chains.chainNameOf(message.chainId);
  } catch (error) {
    if (error instanceof ChainUnavailable) throw chainUnavailable(message.chainId);
    throw error;
  }
  if (chain === undefined) throw new DomainError('SIWE_CHAIN_UNSUPPORTED', `chain id ${message.chainId} is not a chain this platform reads`);

  const now = clock.now();
  const nonce = await consumeWalletLinkNonce(db, { nonce: message.nonce, userId: args.userId, now });
  if (!nonce) throw new DomainError('SIWE_NONCE_INVALID', 'the nonce was not issued to you or was already used; ask for a new one');
  const expired = timeProblem(message, nonce, now, args.settings.clockSkewMs);
  if (expired) throw new DomainError('SIWE_MESSAGE_EXPIRED', `${expired}; ask for a new nonce and sign again`);

  const verifiedBy = await proofOf(args.chains, chain, message.address, args.body);
  if (!verifiedBy) throw new DomainError('SIWE_SIGNATURE_INVALID', "the signature is not the message's address's (nor does its contract wallet accept it)");

  return db.transaction(async (tx) => {
    const row = await upsertVerifiedWallet(tx, {
      userId: args.userId,
      chain: chain!,
      chainId: message.chainId,
      address: message.address,
      verifiedBy,
      verifiedAt: clock.now(),
    });
    await rerenderProfile(tx, args.userId);
    const wallet = toLinkedWallet(row);
    // The owner's own event (personal endpoints of this user only), committed with the link.
    await appendEvents(tx, [{ type: 'wallet.linked', audience: { userId: args.userId }, data: wallet, at: row.verifiedAt ?? clock.now() }]);
    return wallet;
  });
}

/** Why the message is no longer (or not yet) good, or null. */
function timeProblem(message: WalletLinkMessage, nonce: { issuedAt: Date; expiresAt: Date }, now: Date, skewMs: number): string | null {
  const ahead = now.getTime() + skewMs;
  if (nonce.expiresAt.getTime() <= now.getTime()) return 'the nonce has expired';
  if (message.expirationTime && message.expirationTime.getTime() <= now.getTime()) return "the message's Expiration Time has passed";
  if (message.notBefore && message.notBefore.getTime() > ahead) return "the message's Not Before has not come yet";
  if (message.issuedAt.getTime() > ahead) return "the message's Issued At is in the future";
  // A message cannot have been written before its nonce existed: an older Issued At is a false date.
  if (message.issuedAt.getTime() < nonce.issuedAt.getTime() - skewMs) return "the message's Issued At is before its nonce was issued";
  return null;
}

/** 'siwe' when the signature recovers to the address, 'erc1271' when its contract accepts it, else null. */
async function proofOf(chains: WalletLinkChains, chain: string, address: Address, body: LinkWalletBody): Promise<'siwe' | 'erc1271' | null> {
  const args = { address, message: body.message, signature: body.signature as `0x${string}` };
  if (await recoversTo(args).catch(() => false)) return 'siwe';
  try {
    return (await chains.verifyMessage(chain, args)) ? 'erc1271' : null;
  } catch (error) {
    if (error instanceof ChainUnavailable) throw chainUnavailable(chain);
    throw error;
  }
}

/** secp256k1's group order: an `s` above its half is the malleable twin (n - s) of a valid signature (EIP-2). */
const SECP256K1_ORDER = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

/**
 * A 65-byte (r, s, v) signature whose `s` is high. Ethereum has refused those since EIP-2 and no
 * wallet makes one; the recovery here and an ERC-1271 contract's own ecrecover would still accept
 * it, so one is refused before either sees it. Other lengths (a contract wallet's own formats) are
 * left to the contract.
 */
function isHighS(signature: string): boolean {
  if (!/^0x[0-9a-fA-F]{130}$/.test(signature)) return false;
  return BigInt(`0x${signature.slice(66, 130)}`) > SECP256K1_ORDER / 2n;
}

const isWalletKey = (key: unknown): key is WalletKey =>
  Array.isArray(key) && key.length === 2 && key.every((part) => typeof part === 'string' && part.length > 0 && part.length <= 128);

/** The user's wallets, in (chain, address) order. */
export async function listMyWallets(db: Db, args: { userId: string } & PageRequest): Promise<Page<LinkedWallet>> {
  const page = readPageRequest(args, { binding: cursorBinding('dashboard:wallets', args.userId), rule: DASHBOARD_PAGE_SIZE, isKey: isWalletKey });
  const rows = await pageUserWallets(db, { userId: args.userId, after: page.after, limit: page.limit });
  return toPage(rows, page, (r): WalletKey => [r.chain, r.address], toLinkedWallet);
}

/**
 * Removes one of the user's wallets (the row goes; linking it again proves it again). The address
 * is matched as stored, or EIP-55 checksummed when it is an EVM address given in another case.
 */
export async function unlinkWallet(db: Db, args: { userId: string; chain: string; address: string }): Promise<void> {
  const removed = await db.transaction(async (tx) => {
    const candidates = [...new Set([args.address, checksummedOrSelf(args.address)])];
    for (const address of candidates) {
      const row = await deleteUserWallet(tx, { userId: args.userId, chain: args.chain, address });
      if (row) {
        await rerenderProfile(tx, args.userId);
        await appendEvents(tx, [{ type: 'wallet.unlinked', audience: { userId: args.userId }, data: toLinkedWallet(row), at: new Date() }]);
        return row;
      }
    }
    return null;
  });
  if (!removed) throw new DomainError('WALLET_NOT_FOUND', 'you have no such wallet on that chain');
}

function checksummedOrSelf(address: string): string {
  return /^0x[0-9a-fA-F]{40}$/.test(address) ? getAddress(address) : address;
}
