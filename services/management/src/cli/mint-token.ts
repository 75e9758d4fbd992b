import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../config.js';
import { signDevToken } from './dev-token.js';

/**
 * Prints a signed dashboard JWT for local development:
 *   pnpm --filter @raffle/management token --user <userId> [--ttl 3600]
 * It signs with JWT_SECRET (the development default outside production), and JWT_ISSUER /
 * JWT_AUDIENCE when set, exactly as the service will verify it.
 */
const { values } = parseArgs({
  options: { user: { type: 'string' }, ttl: { type: 'string', default: '3600' } },
  strict: true,
});

const ttl = Number(values.ttl);
if (!values.user || !Number.isInteger(ttl) || ttl <= 0) {
  console.error('usage: token --user <userId> [--ttl <seconds>]');
  process.exit(2);
}

let config;
try {
  // DATABASE_URL is irrelevant to signing; a placeholder keeps the config checks in one place.
  config = loadConfig({ DATABASE_URL: 'postgres://unused', ...process.env });
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  console.error(error.message);
  process.exit(2);
}

if (config.JWT_JWKS_URL) {
  console.error('JWT_JWKS_URL is set: management verifies only tokens signed by a key in that JWKS, so an HS256 token from here would be refused');
  process.exit(2);
}

console.log(signDevToken(config.JWT_SECRET, { sub: values.user, ttlSeconds: ttl, iss: config.JWT_ISSUER, aud: config.JWT_AUDIENCE }));
