import type { Config } from './config.js';

/** Data-plane errors carry `code`; management errors do not (the spec), their message starts with it. */
export type ErrorStyle = 'data-plane' | 'management';

export type UpstreamRoute = {
  /** A path prefix such as /api/developer; the path (dot segments resolved) and query string go upstream. */
  prefix: string;
  /** The upstream origin, no trailing slash. */
  target: string;
  /** Named in the 502 message. */
  upstreamName: string;
  errorStyle: ErrorStyle;
};

const MANAGEMENT_PREFIXES = ['/api/developer', '/api/dashboard'];
const DATA_PLANE_PREFIXES = ['/api/v1', '/public/v1'];

/** Which upstream answers which prefix. */
export function upstreamRoutes(config: Pick<Config, 'MANAGEMENT_URL' | 'DATA_PLANE_URL'>): UpstreamRoute[] {
  return [
    ...MANAGEMENT_PREFIXES.map((prefix) => ({ prefix, target: config.MANAGEMENT_URL, upstreamName: 'management', errorStyle: 'management' as const })),
    ...DATA_PLANE_PREFIXES.map((prefix) => ({ prefix, target: config.DATA_PLANE_URL, upstreamName: 'data plane', errorStyle: 'data-plane' as const })),
  ];
}

/**
 * How an answer of the console's own is worded for a path: as its upstream words errors, so the
 * SDK reads a console 502 or 503 on /api/v1 as it reads the data plane's. Elsewhere, management's.
 */
export function errorStyleOf(path: string): ErrorStyle {
  return DATA_PLANE_PREFIXES.some((prefix) => path === prefix || path.startsWith(`${prefix}/`)) ? 'data-plane' : 'management';
}
