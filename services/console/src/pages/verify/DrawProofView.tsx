import type { DrawProof } from '@raffle/sdk';
import { ScrollTable } from '../raffles/ScrollTable';

type Props = { proof: DrawProof; recomputedWinners?: string[]; headingLevel?: 2 | 3 };

/**
 * What a draw proof claims: the commitment published with the raffle, the seed revealed at the
 * draw, the digest of the frozen entries, and the winners by position. A tampered proof is still
 * shown as served (defensively: any field may be missing or of the wrong type).
 */
export function DrawProofView({ proof, recomputedWinners, headingLevel = 2 }: Props) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  const entries = Array.isArray(proof.entries) ? proof.entries : [];
  const winners = Array.isArray(proof.winners) ? [...proof.winners].sort((a, b) => a.position - b.position) : [];
  const userOf = new Map(entries.map((e) => [e.id, e.userId]));
  return (
    <div className="proof">
      <dl className="facts">
        <div>
          <dt>Algorithm</dt>
          <dd className="mono">{String(proof.algorithm)}</dd>
        </div>
        <div>
          <dt>Commitment (sha256 of the seed, public since publishing)</dt>
          <dd className="mono break" data-testid="proof-commitment">{String(proof.drawCommitment)}</dd>
        </div>
        <div>
          <dt>Revealed seed</dt>
          <dd className="mono break" data-testid="proof-seed">{String(proof.seed)}</dd>
        </div>
        <div>
          <dt>Entries digest</dt>
          <dd className="mono break" data-testid="proof-digest">{String(proof.entriesDigest)}</dd>
        </div>
        <div>
          <dt>Spots (winners the draw must pick, or every entry when there are fewer)</dt>
          <dd data-testid="proof-spots">{String(proof.spots)}</dd>
        </div>
        <div>
          <dt>Eligible entries in the draw</dt>
          <dd>{entries.length}</dd>
        </div>
      </dl>
      <Heading>Winners ({winners.length})</Heading>
      {winners.length === 0 ? (
        <p>The proof lists no winners.</p>
      ) : (
        <ScrollTable label="Winners the proof claims" testId="proof-winners">
            <thead>
              <tr>
                <th scope="col">Position</th>
                <th scope="col">Entry</th>
                <th scope="col">User</th>
                {recomputedWinners ? <th scope="col">Recomputed</th> : null}
              </tr>
            </thead>
            <tbody>
              {winners.map((w, i) => {
                const recomputed = recomputedWinners?.[i];
                return (
                  <tr key={`${w.position}-${w.entryId}`}>
                    <td>{w.position}</td>
                    <td className="mono">{w.entryId}</td>
                    <td className="mono">{userOf.get(w.entryId) ?? 'not among the entries'}</td>
                    {recomputedWinners ? <td>{recomputed === w.entryId ? 'matches' : `differs: ${recomputed ?? 'nobody'}`}</td> : null}
                  </tr>
                );
              })}
            </tbody>
          </ScrollTable>
      )}
    </div>
  );
}
