import './raffle-pages.css';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { useManagement } from '../../api/clients';
import { useScope } from '../../scope/scope';
import { AllowlistPanel } from './allowlist/AllowlistPanel';
import { ApiErrorNotice } from '../../ui/ApiErrorNotice';
import { DrawProofPanel } from './DrawProofPanel';
import { EntriesPanel } from './EntriesPanel';
import { LifecycleActions } from './LifecycleActions';
import { RaffleEditor } from './RaffleEditor';
import { RaffleFacts } from './RaffleFacts';
import { raffleKey } from './raffle-keys';
import { isAllowlistAllocation } from './raffle-rules';
import { StatusBadge } from './StatusBadge';
import { WinnersPanel } from './WinnersPanel';

/** One raffle: its settings (editable while the status allows), lifecycle actions, entries, winners, allowlist (allowlist allocations) and draw proof. */
export default function RafflePage() {
  const { raffleId = '' } = useParams();
  const { scope, basePath, can } = useScope();
  const mgmt = useManagement();
  const workspaceId = scope.kind === 'workspace' ? scope.workspaceId : '';
  const manage = can('manage');
  const query = useQuery({
    queryKey: raffleKey(workspaceId, raffleId),
    queryFn: () => mgmt.workspaces.raffles.get(workspaceId, raffleId),
    enabled: workspaceId !== '' && raffleId !== '',
  });
  const raffle = query.data;

  return (
    <article aria-labelledby="raffle-heading">
      <p>
        <Link to={`${basePath}/raffles`}>← All raffles</Link>
      </p>
      {query.error ? (
        <>
          <h1 id="raffle-heading">Raffle</h1>
          <ApiErrorNotice error={query.error} />
        </>
      ) : null}
      {query.isLoading ? (
        <>
          <h1 id="raffle-heading">Raffle</h1>
          <p role="status">Loading the raffle…</p>
        </>
      ) : null}
      {raffle ? (
        <>
          <div className="page-header">
            <h1 id="raffle-heading">{raffle.title}</h1>
            <StatusBadge status={raffle.status} />
          </div>
          <LifecycleActions raffle={raffle} workspaceId={workspaceId} manage={manage} />
          <RaffleFacts raffle={raffle} />
          <RaffleEditor raffle={raffle} workspaceId={workspaceId} manage={manage} />
          <EntriesPanel raffle={raffle} workspaceId={workspaceId} manage={manage} />
          <WinnersPanel raffle={raffle} workspaceId={workspaceId} manage={manage} />
          {isAllowlistAllocation(raffle.allocationType) ? <AllowlistPanel raffle={raffle} workspaceId={workspaceId} /> : null}
          <DrawProofPanel raffle={raffle} workspaceId={workspaceId} />
        </>
      ) : null}
    </article>
  );
}
