import { createClientErrorHandler } from '@raffle/service-kit';

/** HTTP-parser failures in the management error body (which has no code). */
export const clientErrorHandler = createClientErrorHandler((_failure, base) => base);
