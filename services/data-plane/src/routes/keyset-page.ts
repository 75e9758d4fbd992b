import type { KeysetPage } from '@raffle/db';
import type { FastifyInstance } from 'fastify';
import { renderPage } from './send-json.js';

export type KeysetPageRequest<K> = {
  /** Names the route and its filters; see docs/decisions/0004-cursors.md. */
  binding: string;
  cursor: string | undefined;
  isKey: (value: unknown) => value is K;
  load: (after: K | null) => Promise<KeysetPage<K>>;
};

/** Decodes the cursor, loads the page after it, and renders `{ data, pagination }`. */
export async function renderKeysetPage<K>(app: FastifyInstance, request: KeysetPageRequest<K>): Promise<string> {
  const after = request.cursor ? app.cursors.decode(request.binding, request.cursor, request.isKey) : null;
  const page = await request.load(after);
  return renderPage(page, page.hasMore ? app.cursors.encode(request.binding, page.lastKey) : null);
}
