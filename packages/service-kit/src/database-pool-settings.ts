import { POOL_MODES } from '@raffle/db';
import { Type } from '@sinclair/typebox';

/**
 * How a service reaches Postgres past DATABASE_URL; every service with a database spreads these
 * into its ConfigSchema (docs/decisions/0037).
 */
export const DatabasePoolSettings = {
  /**
   * `session`: DATABASE_URL is Postgres itself or a session pooler. `transaction`: it is PgBouncer
   * in transaction mode; statements are not prepared, and the pooler's server sessions must carry
   * the statement bounds and jit=off (its connect_query), which the service checks at startup.
   */
  DATABASE_POOL_MODE: Type.Union(
    POOL_MODES.map((mode) => Type.Literal(mode)),
    { default: 'session' },
  ),
  /**
   * Optional, for transaction mode: a session connection straight to the primary, for what a
   * transaction pooler cannot carry (the dispatcher's LISTEN; the migrations' advisory lock).
   * Without it the relay polls, and the migrate command refuses to run.
   */
  DATABASE_DIRECT_URL: Type.Optional(Type.String({ minLength: 1 })),
};
