import type { RequestOptions } from '../../http/request-options.js';
import type { WithResponse } from '../../http/response-info.js';
import type { HttpClient, PagedList } from '../../http/http-client.js';
import { encodePath } from '../encode-path.js';
import type { ListParams, ManagementSchemas, RequestBody } from '../operation-types.js';

/** One of the signed-in user's wallets, with how and when it was proven. */
export type LinkedWallet = ManagementSchemas['LinkedWallet'];
/** A fresh single-use nonce and what the message to sign must carry (see createWalletLinkMessage). */
export type WalletLinkNonce = ManagementSchemas['WalletLinkNonce'];
export type LinkWalletParams = RequestBody<'linkWallet'>;
export type ListWalletsParams = ListParams<'listMyWallets'>;

/**
 * The signed-in user's wallets, proven by Sign-In with Ethereum: `nonce()`, build the message
 * (`createWalletLinkMessage`), have the wallet sign it (personal_sign), then `link()`.
 */
export class ManagementWallets {
  constructor(private readonly http: HttpClient) {}

  /** A single-use nonce (10 minutes by default), the console's domain and URI, and the chain ids a message may name. */
  nonce(options?: RequestOptions): Promise<WithResponse<WalletLinkNonce>> {
    return this.http.request({ method: 'POST', path: '/api/dashboard/me/wallets/nonce', options });
  }

  /** Links the wallet that signed the EIP-4361 message; each refusal has its own `SIWE_*` code. */
  link(params: LinkWalletParams, options?: RequestOptions): Promise<WithResponse<LinkedWallet>> {
    return this.http.request({ method: 'POST', path: '/api/dashboard/me/wallets', body: params, options });
  }

  /** The user's wallets, by chain then address. */
  list(params: ListWalletsParams = {}, options?: RequestOptions): PagedList<LinkedWallet> {
    return this.http.list({ method: 'GET', path: '/api/dashboard/me/wallets', query: { ...params }, options });
  }

  /** Unlinks a wallet (404 WALLET_NOT_FOUND when the user has none such). */
  unlink(chain: string, address: string, options?: RequestOptions): Promise<void> {
    return this.http.request({ method: 'DELETE', path: encodePath`/api/dashboard/me/wallets/${chain}/${address}`, options });
  }
}
