import { fetchAndVerifyDraw, type DrawProof, type Raffle } from '@raffle/sdk';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { ApiErrorNotice } from '../../ui/ApiErrorNotice';
import { BeaconFacts } from '../verify/BeaconFacts';
import { DrawChecks } from '../verify/DrawChecks';
import { DrawProofView } from '../verify/DrawProofView';
import { verifyOnThisPlatform, type PlatformVerification } from '../verify/platform-trust';
import { VerdictBanner } from '../verify/VerdictBanner';
import { proofKey } from './raffle-keys';
import { publicProofAvailability } from './raffle-rules';

type Props = { raffle: Raffle; workspaceId: string };

/**
 * The draw proof as anyone can fetch it (the public route), and "Verify in this browser", which
 * recomputes the draw here with the SDK's verifyDraw, held against the raffle as the workspace
 * reads it (the algorithm bound at publish, the commitment, the round fixed at the close). Private raffles have no public proof: the
 * panel says so instead.
 */
export function DrawProofPanel({ raffle, workspaceId }: Props) {
  const availability = publicProofAvailability(raffle);
  const [verification, setVerification] = useState<PlatformVerification | null>(null);
  const query = useQuery({
    queryKey: proofKey(workspaceId, raffle.id),
    // Only the fetch is wanted here; the verdict comes from the button, on the proof as shown.
    queryFn: async (): Promise<DrawProof> => (await fetchAndVerifyDraw(raffle.slug, { baseUrl: window.location.origin })).proof,
    enabled: availability.available,
    retry: false,
  });

  return (
    <section aria-labelledby="proof-heading">
      <h2 id="proof-heading">Draw proof</h2>
      {!availability.available ? <p>{availability.reason}</p> : null}
      {query.error ? <ApiErrorNotice error={query.error} /> : null}
      {query.isLoading && availability.available ? <p role="status">Fetching the public proof…</p> : null}
      {query.data ? (
        <>
          <DrawProofView proof={query.data} recomputedWinners={verification?.verification.recomputedWinners} headingLevel={3} />
          <div className="actions">
            <button type="button" className="button button-primary" onClick={() => void verifyOnThisPlatform(query.data, raffle).then(setVerification)}>
              Verify in this browser
            </button>
            <Link to={`/verify/${raffle.slug}`}>Public verification page</Link>
          </div>
          {verification ? (
            <>
              <VerdictBanner verification={verification.verification} />
              <BeaconFacts proof={query.data} {...verification} headingLevel={3} />
              <DrawChecks proof={query.data} {...verification} headingLevel={3} />
            </>
          ) : null}
        </>
      ) : null}
    </section>
  );
}
