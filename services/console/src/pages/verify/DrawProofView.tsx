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
      <WinnerChanges proof={proof} Heading={Heading} />
    </div>
  );
}

/**
 * Winners disqualified after the draw and the entries rerolls gave their positions, with times, as
 * the proof lists them (issue 34): an owner cannot walk down the revealed order unseen.
 */
function WinnerChanges({ proof, Heading }: { proof: DrawProof; Heading: 'h2' | 'h3' }) {
  const disqualified = Array.isArray(proof.disqualifiedWinners) ? proof.disqualifiedWinners : [];
  const rerolled = Array.isArray(proof.rerolledWinners) ? proof.rerolledWinners : [];
  if (disqualified.length === 0 && rerolled.length === 0) return null;
  const rows = [
    ...disqualified.map((d) => ({ key: `d-${d.entryId}-${d.position}`, at: d.disqualifiedAt, position: d.position, entryId: d.entryId, what: d.replacedAt ? `disqualified; position rerolled ${d.replacedAt}` : 'disqualified; not rerolled' })),
    ...rerolled.map((r) => ({ key: `r-${r.entryId}-${r.position}`, at: r.selectedAt, position: r.position, entryId: r.entryId, what: 'selected by a reroll' })),
  ].sort((a, b) => String(a.at).localeCompare(String(b.at)));
  return (
    <>
      <Heading>Changed after the draw ({disqualified.length} disqualified, {rerolled.length} rerolled)</Heading>
      <ScrollTable label="Winners disqualified and rerolled after the draw" testId="proof-winner-changes">
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">Position</th>
            <th scope="col">Entry</th>
            <th scope="col">What</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.key}>
              <td className="mono">{String(row.at)}</td>
              <td>{row.position}</td>
              <td className="mono">{row.entryId}</td>
              <td>{row.what}</td>
            </tr>
          ))}
        </tbody>
      </ScrollTable>
    </>
  );
}
