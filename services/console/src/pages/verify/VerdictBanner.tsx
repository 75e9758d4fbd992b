import { drawVerdictLabel, validDrawSummary, type DrawVerification } from '@raffle/sdk';

/** VALID, VALID BUT PREDICTABLE (a seed-only draw) or INVALID in words (never colour alone), with every problem the check found. */
export function VerdictBanner({ verification }: { verification: DrawVerification }) {
  if (verification.valid && verification.predictableBy === 'seed_holder') {
    // A seed-only draw holds together, but its operator could have known the winners: never a plain VALID.
    return (
      <div className="verdict verdict-predictable" role="status" data-testid="verdict">
        <p>
          <strong>{drawVerdictLabel(verification)}</strong>: {validDrawSummary(verification)}
        </p>
      </div>
    );
  }
  if (verification.valid) {
    return (
      <div className="verdict verdict-valid" role="status" data-testid="verdict">
        <p>
          <strong>VALID</strong>: {validDrawSummary(verification)}
        </p>
      </div>
    );
  }
  return (
    <div className="verdict verdict-invalid" role="alert" data-testid="verdict">
      <p>
        <strong>INVALID</strong>: this proof does not hold.
      </p>
      <ul>
        {verification.problems.map((problem) => (
          <li key={problem}>{problem}</li>
        ))}
      </ul>
    </div>
  );
}
