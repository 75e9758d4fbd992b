/**
 * The `Raffle-Read-After` tokens of a client's writes. A deployment that reads from a replica
 * answers each write (entering, withdrawing) with where it ends in the database's log; a read
 * that sends it back sees that write, whichever instance answers. The client keeps the furthest
 * token it has seen and sends it on every GET, so its own writes are never missing from its reads.
 */
export type ReadAfterTokens = {
  /** Keeps `token` if it is further than the one kept; anything that is not a token is ignored. */
  saw(token: string | null): void;
  /** The furthest token seen, or null before any write answered with one. */
  latest(): string | null;
};

const TOKEN = /^([0-9A-Fa-f]{1,8})\/([0-9A-Fa-f]{1,8})$/;

/** High word first, as Postgres orders its log positions. */
function positionOf(token: string): [number, number] | null {
  const match = TOKEN.exec(token);
  return match ? [parseInt(match[1]!, 16), parseInt(match[2]!, 16)] : null;
}

export function createReadAfterTokens(): ReadAfterTokens {
  let kept: { token: string; position: [number, number] } | null = null;
  return {
    saw(token) {
      const position = token === null ? null : positionOf(token);
      if (!position || token === null) return;
      const further = !kept || position[0] > kept.position[0] || (position[0] === kept.position[0] && position[1] > kept.position[1]);
      if (further) kept = { token, position };
    },
    latest: () => kept?.token ?? null,
  };
}
