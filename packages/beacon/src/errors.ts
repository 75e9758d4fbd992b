/**
 * The round exists in the future (by the clock) or the relays have not published it yet. Not a
 * failure: the draw answers 409 DRAW_BEACON_PENDING with `retryAfterSeconds` as Retry-After.
 */
export class BeaconRoundPending extends Error {
  override readonly name = 'BeaconRoundPending';
  constructor(
    readonly round: number,
    readonly retryAfterSeconds: number,
  ) {
    super(`beacon round ${round} is not published yet; retry in ${retryAfterSeconds} s`);
  }
}

/** Why one relay's answer was not used. */
export type RelayFailure = { relay: string; reason: string };

/** No relay gave a verified round: the raffle stays closed and an alert should fire. */
export class BeaconUnavailable extends Error {
  override readonly name = 'BeaconUnavailable';
  constructor(
    readonly round: number | 'latest',
    readonly failures: readonly RelayFailure[],
  ) {
    super(
      `no relay gave a verified beacon round ${round}: ` +
        (failures.length === 0 ? 'no relays configured' : failures.map((f) => `${f.relay}: ${f.reason}`).join('; ')),
    );
  }
}
