import { describeBeaconChain, QUICKNET, timeOfRound, utcTime, type DrawProof, type DrawVerification, type TrustedBeaconChain } from '@raffle/sdk';

type Props = { proof: DrawProof; verification: DrawVerification; trustedChains: readonly TrustedBeaconChain[]; headingLevel?: 2 | 3 };

const isWholeNumber = (n: unknown): n is number => Number.isSafeInteger(n);

/**
 * The beacon round a draw mixed in: which round, when it was due, when entries closed, and which
 * chain it names, with a chain other than drand's quicknet marked as such in words. Shown as
 * served (any field may be wrong); the verdict on each is in the checks.
 */
export function BeaconFacts({ proof, verification, trustedChains, headingLevel = 2 }: Props) {
  const beacon = proof.beacon;
  if (!beacon || typeof beacon !== 'object') return null;
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  const signer = verification.beacon;
  const trusted = trustedChains.find((c) => c.chainHash === beacon.chainHash);
  const clock = trusted ?? beacon;
  const due = isWholeNumber(beacon.round) && beacon.round >= 1 && isWholeNumber(clock.genesisTime) && isWholeNumber(clock.period) ? utcTime(timeOfRound(clock, beacon.round)) : 'unknown';
  const chain = signer
    ? describeBeaconChain(signer.chainHash, trusted)
    : `chain ${String(beacon.chainHash).slice(0, 16)}…, not trusted here${beacon.chainHash === QUICKNET.chainHash ? " (it names drand's quicknet but carries another key)" : ''}`;
  return (
    <section aria-labelledby="beacon-heading">
      <Heading id="beacon-heading">Public beacon round</Heading>
      <dl className="facts">
        <div>
          <dt>Beacon chain</dt>
          <dd data-testid="beacon-chain">{chain}</dd>
        </div>
        <div>
          <dt>Round</dt>
          <dd data-testid="beacon-round">{String(beacon.round)}</dd>
        </div>
        <div>
          <dt>Round due</dt>
          <dd data-testid="beacon-round-time">{due}</dd>
        </div>
        <div>
          <dt>Entries closed (the operator's claim: the round the raffle named at its close holds it)</dt>
          <dd data-testid="beacon-closed-at">{typeof proof.closedAt === 'string' && !Number.isNaN(Date.parse(proof.closedAt)) ? utcTime(Math.floor(Date.parse(proof.closedAt) / 1000)) : 'not stated'}</dd>
        </div>
        <div>
          <dt>Chain hash</dt>
          <dd className="mono break">{String(beacon.chainHash)}</dd>
        </div>
        <div>
          <dt>Randomness (sha256 of the signature)</dt>
          <dd className="mono break">{String(beacon.randomness)}</dd>
        </div>
      </dl>
      {signer?.trusted === 'custom' ? (
        <p className="notice" data-testid="beacon-notice">
          <strong>Not the League of Entropy.</strong> This round was signed by {describeBeaconChain(signer.chainHash, trusted)}. It is trusted here only because this platform
          says so: whoever runs that beacon holds its key and could know its rounds in advance. Only a draw on drand's quicknet is unpredictable to the platform itself.
        </p>
      ) : null}
    </section>
  );
}
