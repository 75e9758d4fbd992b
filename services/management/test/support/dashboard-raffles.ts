import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { timeOfRound } from '@raffle/beacon';
import { insertUser, type Database, type NewUser } from '@raffle/db';
import { localBeaconChain } from '@raffle/service-kit/testing';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { expectSchema } from './contract.js';
import { tokenFor } from './jwt.js';

export type Raffle = { id: string; slug: string; status: string; mechanic: string; spots: number; drawCommitment: string | null; [k: string]: unknown };
export type Entry = { id: string; userId: string; status: string; source: string; statusReason?: string; duplicateFlags: { ipReuse?: string[] } };
export type Win = {
  id: string;
  entryId: string;
  userId: string;
  raffleId: string;
  position: number;
  status: string;
  source: string;
  deliveryStatus: string;
  deliveryNote?: string;
  finalizedAt?: string;
  deliveredAt?: string;
  replacedAt?: string;
  disqualifiedAt?: string;
};
export type Page<T> = { data: T[]; pagination: { nextCursor: string | null; hasMore: boolean } };
export type Mechanic = 'raffle' | 'fcfs' | 'collection' | 'application';
export const ACTIONS = ['publish', 'open', 'close', 'draw', 'finalize', 'cancel'] as const;
export type Action = (typeof ACTIONS)[number];

/** Resolves once a closed raffle's beacon round is due on the run's local beacon: a draw then succeeds at once. */
export async function untilBeaconRound(raffle: Raffle): Promise<void> {
  if (typeof raffle.beaconRound !== 'number') return;
  await sleep(Math.max(0, timeOfRound(localBeaconChain(), raffle.beaconRound) * 1000 - Date.now()) + 100);
}

export const as = (userId: string) => ({ authorization: `Bearer ${tokenFor(userId)}` });
export const uniqueSlug = (prefix = 'r') => `${prefix}-${randomBytes(5).toString('hex')}`;

/** HTTP helpers over one app for one workspace, acting as `actor` unless told otherwise. */
export function dashboardRaffles(app: FastifyInstance, database: Database, workspaceId: string, actor: string) {
  const base = (ws = workspaceId) => `/api/dashboard/workspaces/${ws}/raffles`;
  const raffleUrl = (raffleId: string, ws = workspaceId) => `${base(ws)}/${raffleId}`;

  return {
    base,
    raffleUrl,
    async user(input: Partial<NewUser> = {}) {
      return insertUser(database.db, { handle: `u-${randomBytes(5).toString('hex')}`, createdAt: new Date('2020-01-01T00:00:00Z'), ...input });
    },
    create(body: Record<string, unknown> = {}, userId = actor) {
      return app.inject({
        method: 'POST',
        url: base(),
        headers: as(userId),
        payload: { slug: uniqueSlug(), title: 'A raffle', mechanic: 'raffle', allocationType: 'allowlist_gtd', visibility: 'public', spots: 2, ...body },
      });
    },
    async draft(body: Record<string, unknown> = {}): Promise<Raffle> {
      const res = await this.create(body);
      expect(res.statusCode, res.body).toBe(201);
      expectSchema('DashboardRaffle', res.json());
      return res.json() as Raffle;
    },
    /** One POST of the action, answered as it is (a draw before its beacon round is 409 DRAW_BEACON_PENDING). */
    attempt(raffleId: string, action: Action, payload?: unknown, userId = actor) {
      return app.inject({ method: 'POST', url: `${raffleUrl(raffleId)}/${action}`, headers: as(userId), ...(payload === undefined ? {} : { payload: payload as object }) });
    },
    /**
     * The action as a client that honours Retry-After does it: a draw right after a close waits
     * (a second or two on the tests' beacon) for the raffle's round, then answers.
     */
    async act(raffleId: string, action: Action, payload?: unknown, userId = actor) {
      for (;;) {
        const res = await this.attempt(raffleId, action, payload, userId);
        if (res.statusCode !== 409 || !String((res.json() as { message?: unknown }).message).startsWith('DRAW_BEACON_PENDING: ')) return res;
        await sleep(Number(res.headers['retry-after']) * 1000);
      }
    },
    async ok(raffleId: string, action: Action, payload?: unknown): Promise<Raffle> {
      const res = await this.act(raffleId, action, payload);
      expect(res.statusCode, `${action}: ${res.body}`).toBe(200);
      expectSchema('DashboardRaffle', res.json());
      return res.json() as Raffle;
    },
    /** A published raffle, open now (no startsAt). */
    async open(body: Record<string, unknown> = {}): Promise<Raffle> {
      const draft = await this.draft(body);
      return this.ok(draft.id, 'publish');
    },
    enter(slug: string, userId: string) {
      return app.inject({ method: 'POST', url: `/api/dashboard/raffles/${slug}/entries`, headers: as(userId) });
    },
    withdraw(slug: string, userId: string) {
      return app.inject({ method: 'DELETE', url: `/api/dashboard/raffles/${slug}/entries/me`, headers: as(userId) });
    },
    /** `count` fresh users enter through the web; answers their entries (as the owner sees them). */
    async entrants(slug: string, count: number) {
      const entered: Array<{ userId: string; entryId: string }> = [];
      for (let i = 0; i < count; i++) {
        const user = await this.user();
        const res = await this.enter(slug, user.id);
        expect(res.statusCode, res.body).toBe(201);
        expectSchema('SanitizedEntry', res.json());
        entered.push({ userId: user.id, entryId: (res.json() as { id: string }).id });
      }
      return entered;
    },
    async entries(raffleId: string, query = ''): Promise<Page<Entry>> {
      const res = await app.inject({ method: 'GET', url: `${raffleUrl(raffleId)}/entries${query}`, headers: as(actor) });
      expect(res.statusCode, res.body).toBe(200);
      expectSchema('DashboardEntryPage', res.json());
      return res.json() as Page<Entry>;
    },
    async wins(raffleId: string, query = ''): Promise<Win[]> {
      const res = await app.inject({ method: 'GET', url: `${raffleUrl(raffleId)}/wins${query}`, headers: as(actor) });
      expect(res.statusCode, res.body).toBe(200);
      expectSchema('DashboardWinPage', res.json());
      return (res.json() as Page<Win>).data;
    },
    /** Follows nextCursor to the end; every page must match its schema. */
    async walk<T>(url: string, limit: number, schema: string, extraQuery = ''): Promise<T[]> {
      const seen: T[] = [];
      let cursor: string | null = null;
      for (let pages = 0; pages < 100; pages++) {
        const query: string = `limit=${limit}${extraQuery}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
        const res = await app.inject({ method: 'GET', url: `${url}?${query}`, headers: as(actor) });
        expect(res.statusCode, res.body).toBe(200);
        const page = res.json() as Page<T>;
        expectSchema(schema, page);
        expect(page.data.length).toBeLessThanOrEqual(limit);
        seen.push(...page.data);
        if (!page.pagination.hasMore) {
          expect(page.pagination.nextCursor).toBeNull();
          return seen;
        }
        expect(page.data.length).toBe(limit);
        cursor = page.pagination.nextCursor;
      }
      throw new Error('pagination did not end');
    },
  };
}

export type DashboardRaffles = ReturnType<typeof dashboardRaffles>;
