import type { ReactNode } from 'react';

/**
 * A table that may scroll sideways on a phone. The scrolling box is focusable and named, so a
 * keyboard user can scroll it too (axe: scrollable-region-focusable).
 */
export function ScrollTable({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <div className="table-wrap scroll-table" role="region" aria-label={label} tabIndex={0} data-testid={testId}>
      <table>
        <caption className="visually-hidden">{label}</caption>
        {children}
      </table>
    </div>
  );
}
