import type { ReactNode } from 'react';

/** Terms and their values as the raffle pages show them: a grid of short facts. */
export function FactList({ rows }: { rows: Array<[string, ReactNode]> }) {
  return (
    <dl className="facts">
      {rows.map(([term, value]) => (
        <div key={term}>
          <dt>{term}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
