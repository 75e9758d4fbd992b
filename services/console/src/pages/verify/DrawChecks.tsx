import { describeDrawChecks, type DrawProof, type DrawVerification, type TrustedBeaconChain } from '@raffle/sdk';

type Props = { proof: DrawProof; verification: DrawVerification; trustedChains: readonly TrustedBeaconChain[]; headingLevel?: 2 | 3 };

/** Every claim the verifier checked, with its verdict in words (never colour alone). */
export function DrawChecks({ proof, verification, trustedChains, headingLevel = 2 }: Props) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  // A value that is not a proof at all has no claims to list; the banner says why.
  if (verification.failures.some((f) => f.reason === 'malformed_proof')) return null;
  const checks = describeDrawChecks(proof, verification, trustedChains);
  return (
    <section aria-labelledby="checks-heading">
      <Heading id="checks-heading">What was checked</Heading>
      <ul className="plain draw-checks" data-testid="draw-checks">
        {checks.map((c) => (
          <li key={c.check} data-check={c.check} className={c.ok ? 'check-passed' : 'check-failed'}>
            <strong>{c.ok ? 'Passed' : 'Failed'}</strong> <span className="check-name">{c.check}</span>: {c.text}
          </li>
        ))}
      </ul>
    </section>
  );
}
