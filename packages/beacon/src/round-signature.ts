import { createHash } from 'node:crypto';
import { bls12_381 } from '@noble/curves/bls12-381.js';
import type { BeaconChain } from './chain.js';

/** RFC 9380 hash-to-G1 tag of `bls-unchained-g1-rfc9380` (drand-client lib/beacon-verification.ts). */
const SIGNATURE_DST = 'BLS_SIG_BLS12381G1_XMD:SHA-256_SSWU_RO_NUL_';
const SIGNATURE_HEX = /^[0-9a-f]{96}$/;

/** What an unchained round signs: sha256 of the round number as 8 bytes big-endian. */
function roundMessagePoint(round: number) {
  const roundBytes = Buffer.alloc(8);
  roundBytes.writeBigUInt64BE(BigInt(round));
  const message = createHash('sha256').update(roundBytes).digest();
  return bls12_381.shortSignatures.hash(message, SIGNATURE_DST);
}

/**
 * Whether `signature` (hex, compressed G1) is the chain's signature of `round`. Malformed hex or a
 * point off the curve is a plain `false`: to the caller it is one more unusable relay answer.
 */
export function isRoundSignatureValid(chain: Pick<BeaconChain, 'publicKey'>, round: number, signature: string): boolean {
  if (!SIGNATURE_HEX.test(signature) || !Number.isSafeInteger(round) || round < 1) return false;
  try {
    return bls12_381.shortSignatures.verify(Buffer.from(signature, 'hex'), roundMessagePoint(round), Buffer.from(chain.publicKey, 'hex'));
  } catch {
    return false;
  }
}

/** A round's randomness as drand defines it: sha256 of the signature bytes (hex). */
export function randomnessOf(signature: string): string {
  return createHash('sha256').update(Buffer.from(signature, 'hex')).digest('hex');
}

/** The local beacon's side of the same scheme: sign `round` with a BLS secret key (32 bytes). */
export function signRound(secretKey: Uint8Array, round: number): string {
  const point = bls12_381.shortSignatures.sign(roundMessagePoint(round), secretKey);
  return bls12_381.shortSignatures.Signature.toHex(point);
}

/** The compressed G2 public key (hex) of a BLS secret key. */
export function publicKeyOf(secretKey: Uint8Array): string {
  return bls12_381.shortSignatures.getPublicKey(secretKey).toHex();
}

export function generateSecretKey(): Uint8Array {
  return bls12_381.shortSignatures.keygen().secretKey;
}
