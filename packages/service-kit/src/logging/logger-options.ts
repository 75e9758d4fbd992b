import type { FastifyServerOptions } from 'fastify';
import type { DestinationStream } from 'pino';
import { pathOf } from '../request-path.js';
import { serializeError } from './error-serializer.js';

/**
 * Wherever a secret could surface in a log line, it is censored. Headers that carry a client's
 * IP are censored too: the platform keeps entrants' IPs only as keyed hashes, and its logs do
 * no less.
 */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  'req.headers.cookie',
  'req.headers["x-forwarded-for"]',
  'req.headers["x-real-ip"]',
  'req.headers.forwarded',
  'req.headers["true-client-ip"]',
  'req.headers["cf-connecting-ip"]',
  'res.headers["set-cookie"]',
  'apiKey',
  '*.apiKey',
  'secret',
  '*.secret',
  'token',
  '*.jwt',
  '*.token',
  // OAuth 2.0 values of linked Discord and X accounts, as the platform and the providers name them.
  'accessToken',
  '*.accessToken',
  'refreshToken',
  '*.refreshToken',
  'codeVerifier',
  '*.codeVerifier',
  'access_token',
  '*.access_token',
  'refresh_token',
  '*.refresh_token',
  'code_verifier',
  '*.code_verifier',
];

export type LoggerOptions = { level: string; stream?: DestinationStream; pretty?: boolean };

/**
 * An EVM address in a request's path (the wallet routes name the wallet they unlink) is the
 * user's wallet: logs show that a wallet was named, never which one.
 */
const EVM_ADDRESS = /0x[0-9a-fA-F]{40}(?![0-9a-fA-F])/g;
export const withoutWalletAddresses = (path: string) => path.replace(EVM_ADDRESS, '0x[address]');

type LoggedRequest = { method: string; url: string; headers: Record<string, unknown> };

export function loggerOptions(options: LoggerOptions): FastifyServerOptions['logger'] {
  return {
    level: options.level,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    ...(options.stream ? { stream: options.stream } : {}),
    ...(options.pretty && !options.stream ? { transport: { target: 'pino-pretty' } } : {}),
    serializers: {
      // No remote address: a raw client IP is personal data the platform does not keep.
      req: (request: LoggedRequest) => ({ method: request.method, url: withoutWalletAddresses(pathOf(request.url)), headers: request.headers }),
      err: serializeError,
      error: serializeError,
    },
  } as unknown as FastifyServerOptions['logger'];
}
