import type { RaffleAllowlist as Allowlist } from '@raffle/sdk';
import { DateTime } from '../../../ui/DateTime';
import { ScrollTable } from '../ScrollTable';

const REASONS: Record<Allowlist['versions'][number]['reason'], string> = {
  finalized: 'finalized',
  winners_changed: 'winners changed',
};

/** Every published version, newest first: none is replaced or removed, so no list changes silently. */
export function AllowlistVersions({ allowlist }: { allowlist: Allowlist }) {
  return (
    <>
      <h3>Version history</h3>
      <ScrollTable label="Allowlist versions">
        <thead>
          <tr>
            <th scope="col">Version</th>
            <th scope="col">Root</th>
            <th scope="col">Leaves</th>
            <th scope="col">Reason</th>
            <th scope="col">Published</th>
          </tr>
        </thead>
        <tbody>
          {allowlist.versions.map((v) => (
            <tr key={v.version}>
              <td>{v.version}</td>
              <td>
                {/* Whole on one line: on a phone the table scrolls sideways rather than stacking a root four characters a line. */}
                <code className="mono nowrap">{v.root}</code>
              </td>
              <td>{v.count}</td>
              <td>{REASONS[v.reason]}</td>
              <td>
                <DateTime value={v.publishedAt} />
              </td>
            </tr>
          ))}
        </tbody>
      </ScrollTable>
    </>
  );
}
