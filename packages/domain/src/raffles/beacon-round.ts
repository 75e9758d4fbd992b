import { beaconRoundForClose } from '@raffle/sdk';

/**
 * The round a raffle closing at `closedAt` on `chain` draws with: `roundAt(closedAt) + 2`, fixed at
 * close, published after it (decision 0022). The rule is the SDK's, the one every verifier checks a
 * proof's round against, so the close and the verifier cannot disagree.
 */
export const beaconRoundAtClose = beaconRoundForClose;
