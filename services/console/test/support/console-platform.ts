import { inject } from 'vitest';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { RaffleManagementClient } from '@raffle/sdk';
import { signDevToken } from '../../../management/src/cli/dev-token.js';
import { DEV_JWT_SECRET } from '../../../management/src/config.js';
import { planDemoDataset, type DemoKeys } from '../../../../scripts/platform/db.js';
import { startTestPlatform, type TestPlatform } from '../../../../scripts/platform/test-platform.js';
import { recordPageProblems } from './page-problems.js';

export type DemoUserHandle = 'alice' | 'bob' | 'carol';
export type { DemoKeys };

export type ConsolePlatform = {
  consoleUrl: string;
  dataPlaneUrl: string;
  managementUrl: string;
  /** The demo dataset's keys, users, workspaces and raffles, as `start` prints them. */
  demo: DemoKeys;
  /** The link `start` prints: /sign-in#token=<a 12-hour JWT for the demo user>. */
  signInUrl(user: DemoUserHandle): string;
  /** A dashboard JWT for the demo user (optionally with another lifetime; negative = already expired). */
  tokenFor(user: DemoUserHandle, options?: { ttlSeconds?: number }): string;
  /** A demo user who belongs to no workspace (one of the entrants), and the sign-in link for them. */
  userWithoutWorkspace: { id: string; handle: string; displayName: string; signInUrl: string };
  /** A page in a fresh browser context (its own sessionStorage), recording console errors for checkPage. */
  newPage(options?: { viewport?: { width: number; height: number } }): Promise<Page>;
  /** A new page signed in as the demo user through the printed link, then at a console path. */
  openAs(user: DemoUserHandle, path: string, options?: { viewport?: { width: number; height: number } }): Promise<Page>;
  /** The management API as the demo user, outside the browser (as another client of the team would call it). */
  managementAs(user: DemoUserHandle): RaffleManagementClient;
  /** The console server's log lines so far. */
  consoleLogLines(): string[];
  platform: TestPlatform;
  stop(): Promise<void>;
};

/** Debian's Chromium; no browser download. The flags keep it quiet and offline. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export const DESKTOP_VIEWPORT = { width: 1280, height: 800 };
export const MOBILE_VIEWPORT = { width: 390, height: 844 };

const TOKEN_TTL_SECONDS = 12 * 3600;

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS, headless: true });
}

/** The demo dataset is computed, never random, so its plan names the same users the platform loaded. */
function demoUserWithoutWorkspace() {
  const plan = planDemoDataset();
  const member = new Set(plan.orgs.memberships.map((m) => m.userId));
  const user = plan.users.find((u) => !member.has(u.id));
  if (!user) throw new Error('the demo dataset has no user without a workspace');
  return { id: user.id, handle: user.handle, displayName: user.displayName };
}

/**
 * The whole platform as `pnpm start` runs it (own database with the demo dataset, management,
 * data plane, dispatcher with a private NATS, and the console server), plus a Chromium. One per
 * test file; call stop() in afterAll.
 */
export async function startConsolePlatform(): Promise<ConsolePlatform> {
  // The run's own build (global-setup.ts), not dist, which a concurrent `vite build` may be rewriting.
  // The platform runs its own local chain as `start` does (the demo's passes minted on it); the
  // Wallets page links on it too.
  const platform = await startTestPlatform({ serviceEnv: { STATIC_DIR: inject('consoleStaticDir') } });
  let browser: Browser;
  try {
    browser = await launchChromium();
  } catch (error) {
    await platform.stop();
    throw error;
  }
  const contexts: BrowserContext[] = [];
  const consoleUrl = platform.urls.console!;
  const tokenFor = (user: DemoUserHandle, options: { ttlSeconds?: number } = {}) =>
    signDevToken(process.env.JWT_SECRET ?? DEV_JWT_SECRET, { sub: platform.demo.users[user].id, ttlSeconds: options.ttlSeconds ?? TOKEN_TTL_SECONDS });

  const withoutWorkspace = demoUserWithoutWorkspace();
  const userWithoutWorkspace = {
    ...withoutWorkspace,
    signInUrl: `${consoleUrl}/sign-in#token=${signDevToken(process.env.JWT_SECRET ?? DEV_JWT_SECRET, { sub: withoutWorkspace.id, ttlSeconds: TOKEN_TTL_SECONDS })}`,
  };

  const signInUrl = (user: DemoUserHandle) => `${consoleUrl}/sign-in#token=${tokenFor(user)}`;
  const newPage = async (options: { viewport?: { width: number; height: number } } = {}) => {
    const context = await browser.newContext({ viewport: options.viewport ?? DESKTOP_VIEWPORT, baseURL: consoleUrl });
    contexts.push(context);
    const page = await context.newPage();
    recordPageProblems(page);
    return page;
  };

  return {
    consoleUrl,
    dataPlaneUrl: platform.urls['data-plane']!,
    managementUrl: platform.urls.management!,
    demo: platform.demo,
    tokenFor,
    userWithoutWorkspace,
    signInUrl,
    newPage,
    async openAs(user, path, options) {
      const page = await newPage(options);
      await page.goto(signInUrl(user));
      await page.waitForURL((url) => !url.pathname.startsWith('/sign-in'));
      await page.goto(`${consoleUrl}${path}`);
      return page;
    },
    managementAs: (user) => new RaffleManagementClient({ token: tokenFor(user), baseUrl: platform.urls.management! }),
    consoleLogLines: () => platform.logLines('console'),
    platform,
    async stop() {
      for (const context of contexts) await context.close().catch(() => {});
      await browser.close().catch(() => {});
      await platform.stop();
    },
  };
}
