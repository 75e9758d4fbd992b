import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useManagement } from '../../api/clients';
import { ApiErrorNotice } from '../../ui/ApiErrorNotice';
import { raffleKey } from './raffle-keys';

type Props = { workspaceId: string; raffleId: string; entryId: string };

/**
 * One entry's requirement verdicts, read when asked for (one request per entry opened, not one per
 * row of the page): each requirement passed or failed. Not what the entrant holds: that detail is
 * theirs, and the API does not give it to a workspace.
 */
export function EntryRequirementResults({ workspaceId, raffleId, entryId }: Props) {
  const mgmt = useManagement();
  const [open, setOpen] = useState(false);
  const results = useQuery({
    queryKey: [...raffleKey(workspaceId, raffleId), 'entry-requirements', entryId],
    enabled: open,
    queryFn: () => mgmt.workspaces.raffles.entries.getRequirements(workspaceId, raffleId, entryId),
  });
  const listId = `entry-requirements-${entryId}`;
  return (
    <div>
      <button type="button" className="button" aria-expanded={open} aria-controls={open ? listId : undefined} onClick={() => setOpen(!open)}>
        {open ? 'Hide requirements' : 'Show requirements'}
      </button>
      {open && results.isLoading ? <p role="status">Loading requirements…</p> : null}
      {open && results.error ? <ApiErrorNotice error={results.error} /> : null}
      {open && results.data ? (
        results.data.requirements.length === 0 ? (
          <p id={listId}>No requirements were evaluated for this entry.</p>
        ) : (
          <ul id={listId} className="plain requirement-results" aria-label={`Requirements of entry ${entryId}`}>
            {results.data.requirements.map((r, i) => (
              <li key={i} className={r.passed ? 'requirement-passed' : 'requirement-failed'}>
                <strong>{r.passed ? 'Passed' : 'Failed'}</strong>: {r.label}
              </li>
            ))}
          </ul>
        )
      ) : null}
    </div>
  );
}
