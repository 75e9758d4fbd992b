import { ELIGIBILITY_NOTE, type DrawProof } from '@raffle/sdk';

type Props = { proof: DrawProof; headingLevel?: 2 | 3 };

/**
 * The blocks a draw re-read its on-chain requirements at, one per chain, as served (the verdict on
 * them is in the checks), with what they do and do not prove: balances need an archive node.
 */
export function EligibilityBlocks({ proof, headingLevel = 2 }: Props) {
  const blocks = proof.eligibilityBlocks;
  if (!Array.isArray(blocks) || blocks.length === 0) return null;
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <section aria-labelledby="eligibility-heading">
      <Heading id="eligibility-heading">Eligibility at the close block</Heading>
      <ul className="plain" data-testid="eligibility-blocks">
        {blocks.map((b) => (
          <li key={String(b.chain)} data-chain={String(b.chain)}>
            <strong>{String(b.chain)}</strong> (chain id {String(b.chainId)}): block <span className="mono">{String(b.number)}</span>, hash{' '}
            <span className="mono break">{String(b.hash)}</span>, timestamped {String(b.timestamp)}
          </li>
        ))}
      </ul>
      <p className="muted">{ELIGIBILITY_NOTE}</p>
    </section>
  );
}
