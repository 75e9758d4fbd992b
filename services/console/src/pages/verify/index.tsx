import '../raffles/raffle-pages.css';
import { fetchAndVerifyDraw, RaffleApiError } from '@raffle/sdk';
import { useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { ApiErrorNotice } from '../../ui/ApiErrorNotice';
import { BeaconFacts } from './BeaconFacts';
import { DrawChecks } from './DrawChecks';
import { EligibilityBlocks } from './EligibilityBlocks';
import { DrawProofView } from './DrawProofView';
import { verifyOnThisPlatform } from './platform-trust';
import { VerdictBanner } from './VerdictBanner';

/** The proof from the public route, verified with the chains this page trusts for it and against the raffle's public commitment record. */
async function fetchAndVerifyHere(slug: string) {
  const { url, proof, commitment } = await fetchAndVerifyDraw(slug, { baseUrl: window.location.origin, maxRetries: 1 });
  return { url, proof, ...(await verifyOnThisPlatform(proof, commitment)) };
}

/**
 * The public verification page: no sign-in. The proof is fetched from the public route and the
 * draw recomputed here, in the visitor's browser, so trusting the result needs no trust in us,
 * except for a beacon other than drand's quicknet: the platform's own, which the page names as such.
 */
export default function VerifyPage() {
  const { slug = '' } = useParams();
  const query = useQuery({
    queryKey: ['public-draw', slug],
    queryFn: () => fetchAndVerifyHere(slug),
    retry: false,
  });
  const notFound = query.error instanceof RaffleApiError && query.error.status === 404;

  return (
    <main className="page" id="main">
      <h1>Verify a draw</h1>
      <p>
        Raffle <span className="mono">{slug}</span>
      </p>
      {query.isLoading ? <p role="status">Fetching the draw proof and recomputing the draw…</p> : null}
      {notFound ? (
        <div role="alert" className="notice">
          <p>
            <strong>No drawn public raffle with this slug.</strong> Either no public or unlisted raffle is called "{slug}", or it has not been drawn yet, or it is not a
            verifiable (raffle-mechanic) draw.
          </p>
          <p className="form-hint">{(query.error as RaffleApiError).message}</p>
        </div>
      ) : query.error ? (
        <ApiErrorNotice error={query.error} />
      ) : null}
      {query.data ? (
        <>
          <VerdictBanner verification={query.data.verification} />
          <BeaconFacts proof={query.data.proof} verification={query.data.verification} trustedChains={query.data.trustedChains} />
          <EligibilityBlocks proof={query.data.proof} />
          <DrawChecks proof={query.data.proof} verification={query.data.verification} trustedChains={query.data.trustedChains} />
          <DrawProofView proof={query.data.proof} recomputedWinners={query.data.verification.recomputedWinners} />
          <p className="form-hint">
            Checked in this browser with <span className="mono">verifyDraw</span> from <span className="mono">@raffle/sdk</span>; the proof came from{' '}
            <span className="mono break">{query.data.url}</span>. Anyone can repeat it with the <span className="mono">raffle-verify-draw</span> command.
          </p>
        </>
      ) : null}
    </main>
  );
}
