import { createHash } from 'node:crypto';

/** The only form of a key the database holds. sha256 suffices: keys carry 178 random bits. */
export const hashApiKey = (key: string): string => createHash('sha256').update(key).digest('hex');
