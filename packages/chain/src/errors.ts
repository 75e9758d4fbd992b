/** The reader's failures: a caller tells "try again later" from "not configured here". */
/** The chain did not answer (down, slow past the timeout, or an RPC error): retry later. */
export class ChainUnavailable extends Error {
  constructor(
    readonly chain: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'ChainUnavailable';
  }
}

/** A chain a requirement or a message names that is not configured here. */
export class ChainNotConfigured extends Error {
  constructor(readonly chain: string | number) {
    super(`chain ${chain} is not configured (CHAIN_RPC_URLS)`);
    this.name = 'ChainNotConfigured';
  }
}
