/** The fields of a wallet-link message: the nonce's answer (`mgmt.me.wallets.nonce()`) and the wallet's. */
export type WalletLinkMessageFields = {
  /** The wallet's address; EIP-4361 asks for its EIP-55 checksummed form (the server also takes all-lowercase). */
  address: string;
  /** One of the nonce answer's `chainIds`. */
  chainId: number;
  nonce: string;
  /** The nonce answer's `domain` (the console's host and port). */
  domain: string;
  /** The nonce answer's `uri`. */
  uri: string;
  /** The nonce answer's `statement`; a single line. */
  statement?: string;
  /** Now when absent. */
  issuedAt?: Date;
  expirationTime?: Date;
  notBefore?: Date;
  requestId?: string;
  resources?: string[];
};

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const NONCE = /^[a-zA-Z0-9]{8,}$/;

/**
 * The EIP-4361 (Sign-In with Ethereum) text to have a wallet sign with personal_sign, then send
 * with its signature to `mgmt.me.wallets.link()`. Written here rather than taken from a library:
 * the SDK has one dependency (@noble/curves) and the format is a dozen lines
 * (https://eips.ethereum.org/EIPS/eip-4361#message-format). Throws a TypeError on a field the
 * format cannot carry (a line break in the statement, a malformed address or nonce).
 */
export function createWalletLinkMessage(fields: WalletLinkMessageFields): string {
  if (!ADDRESS.test(fields.address)) throw new TypeError('address must be 0x and 40 hex digits');
  if (!Number.isSafeInteger(fields.chainId) || fields.chainId < 1) throw new TypeError('chainId must be a positive integer (EIP-155)');
  if (!NONCE.test(fields.nonce)) throw new TypeError('nonce must be at least 8 letters or digits');
  if (!fields.domain || /[\s/]/.test(fields.domain)) throw new TypeError('domain must be a host, with its port when not the default');
  if (!fields.uri || /\s/.test(fields.uri)) throw new TypeError('uri must be a URI');
  if (fields.statement !== undefined && /[\r\n]/.test(fields.statement)) throw new TypeError('statement must be one line');
  const lines = [`${fields.domain} wants you to sign in with your Ethereum account:`, fields.address, ''];
  if (fields.statement) lines.push(fields.statement, '');
  else lines.push('');
  lines.push(
    `URI: ${fields.uri}`,
    'Version: 1',
    `Chain ID: ${fields.chainId}`,
    `Nonce: ${fields.nonce}`,
    `Issued At: ${(fields.issuedAt ?? new Date()).toISOString()}`,
  );
  if (fields.expirationTime) lines.push(`Expiration Time: ${fields.expirationTime.toISOString()}`);
  if (fields.notBefore) lines.push(`Not Before: ${fields.notBefore.toISOString()}`);
  if (fields.requestId !== undefined) lines.push(`Request ID: ${fields.requestId}`);
  if (fields.resources?.length) lines.push('Resources:', ...fields.resources.map((r) => `- ${r}`));
  return lines.join('\n');
}
