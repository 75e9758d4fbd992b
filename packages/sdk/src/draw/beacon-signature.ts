import { bls12_381 } from '@noble/curves/bls12-381.js';
import { fromHex, toHex } from '../crypto/encoding.js';
import { sha256 } from '../crypto/hash.js';

/** RFC 9380 hash-to-G1 tag of `bls-unchained-g1-rfc9380` (drand-client lib/beacon-verification.ts). */
const SIGNATURE_DST = 'BLS_SIG_BLS12381G1_XMD:SHA-256_SSWU_RO_NUL_';
const SIGNATURE_HEX = /^[0-9a-f]{96}$/;
const PUBLIC_KEY_HEX = /^[0-9a-f]{192}$/;

/** What an unchained round signs: sha256 of the round number as 8 bytes big-endian. */
function roundMessagePoint(round: number) {
  const roundBytes = new Uint8Array(8);
  new DataView(roundBytes.buffer).setBigUint64(0, BigInt(round));
  return bls12_381.shortSignatures.hash(sha256(roundBytes), SIGNATURE_DST);
}

/**
 * Whether `signature` (hex, compressed G1) is the signature of `round` by the chain whose public
 * key is `publicKey` (hex, compressed G2). The pairing work is @noble/curves'; malformed hex or a
 * point off the curve is a plain `false`.
 */
export function isRoundSignatureValid(chain: { publicKey: string }, round: number, signature: string): boolean {
  if (!SIGNATURE_HEX.test(signature) || !PUBLIC_KEY_HEX.test(chain.publicKey) || !Number.isSafeInteger(round) || round < 1) return false;
  try {
    return bls12_381.shortSignatures.verify(fromHex(signature), roundMessagePoint(round), fromHex(chain.publicKey));
  } catch {
    return false;
  }
}

/** A round's randomness as drand defines it: sha256 of the signature bytes (hex). */
export const randomnessOf = (signature: string): string => toHex(sha256(fromHex(signature)));

/** A beacon's side of the same scheme: sign `round` with a BLS secret key (32 bytes). */
export function signRound(secretKey: Uint8Array, round: number): string {
  return bls12_381.shortSignatures.Signature.toHex(bls12_381.shortSignatures.sign(roundMessagePoint(round), secretKey));
}

/** The compressed G2 public key (hex) of a BLS secret key. */
export const publicKeyOf = (secretKey: Uint8Array): string => bls12_381.shortSignatures.getPublicKey(secretKey).toHex();

export const generateSecretKey = (): Uint8Array => bls12_381.shortSignatures.keygen().secretKey;
