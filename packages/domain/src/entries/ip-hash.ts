import { createHmac } from 'node:crypto';

/**
 * Entrants' IPs are kept only as a keyed hash: equal IPs are detectable as reuse, but the IP
 * cannot be recovered, nor tested by hashing candidates, without the server's key.
 */
export const hashIp = (key: string, ip: string): string => createHmac('sha256', key).update(ip).digest('base64url');
