import { getAddress, isAddress } from 'viem';
import { parseSiweMessage } from 'viem/siwe';
import { DomainError } from '../errors.js';

/** An EIP-4361 message with the fields linking needs, checked for shape (not yet for meaning). */
export type WalletLinkMessage = {
  domain: string;
  scheme?: string;
  /** EIP-55 checksummed. */
  address: `0x${string}`;
  uri: string;
  chainId: number;
  nonce: string;
  issuedAt: Date;
  expirationTime?: Date;
  notBefore?: Date;
};

const invalid = (what: string) => new DomainError('SIWE_MESSAGE_INVALID', `the message is not a Sign-In with Ethereum (EIP-4361) message: ${what}`);

const isDate = (d: Date | undefined): d is Date => d instanceof Date && !Number.isNaN(d.getTime());

const FIELD_LINE = /^(URI|Version|Chain ID|Nonce|Issued At|Expiration Time|Not Before|Request ID|Resources):/;
const HEADER_LINE = / wants you to sign in with your Ethereum account:$/;

/**
 * A field (or the header) written twice: viem's parser keeps one of them — the last URI, the first
 * Expiration Time — while a wallet may show the other, so what was signed is ambiguous. A statement
 * line dressed as a field counts too (the console's statement never is one).
 */
function repeatedField(text: string): string | null {
  const seen = new Set<string>();
  let headers = 0;
  for (const line of text.split('\n')) {
    if (HEADER_LINE.test(line) && ++headers > 1) return 'the "wants you to sign in" line';
    const field = FIELD_LINE.exec(line)?.[1];
    if (field === undefined) continue;
    if (seen.has(field)) return field;
    seen.add(field);
  }
  return null;
}

/**
 * Reads the text a wallet signed. viem's parser (`viem/siwe`) reads it; the `siwe` package's
 * SiweMessage would too, but it imports `ethers` when loaded (its ethersCompat module), a second
 * Ethereum library this platform does not otherwise carry (decision 0026). viem's parser returns
 * whatever fields it matched, so each one linking relies on is required here; the dates must be
 * RFC 3339 (an unreadable one is a malformed message, never "no expiry"), and no field may appear twice.
 */
export function readWalletLinkMessage(text: string): WalletLinkMessage {
  const repeated = repeatedField(text);
  if (repeated) throw invalid(`${repeated} appears more than once`);
  const fields = parseSiweMessage(text);
  if (!fields.domain) throw invalid('no "<domain> wants you to sign in with your Ethereum account:" line');
  if (!fields.address || !isAddress(fields.address, { strict: true })) throw invalid('no valid address (EIP-55 checksummed when mixed case)');
  if (!fields.uri) throw invalid('no URI');
  if (fields.version !== '1') throw invalid('Version must be 1');
  if (fields.chainId === undefined || !Number.isSafeInteger(fields.chainId) || fields.chainId < 1) throw invalid('no valid Chain ID');
  if (!fields.nonce || fields.nonce.length < 8) throw invalid('no Nonce of at least 8 letters or digits');
  if (!isDate(fields.issuedAt)) throw invalid('no valid Issued At (RFC 3339)');
  if ('expirationTime' in fields && !isDate(fields.expirationTime)) throw invalid('Expiration Time is not an RFC 3339 date-time');
  if ('notBefore' in fields && !isDate(fields.notBefore)) throw invalid('Not Before is not an RFC 3339 date-time');
  return {
    domain: fields.domain,
    ...(fields.scheme ? { scheme: fields.scheme } : {}),
    address: getAddress(fields.address),
    uri: fields.uri,
    chainId: fields.chainId,
    nonce: fields.nonce,
    issuedAt: fields.issuedAt,
    ...(fields.expirationTime ? { expirationTime: fields.expirationTime } : {}),
    ...(fields.notBefore ? { notBefore: fields.notBefore } : {}),
  };
}
