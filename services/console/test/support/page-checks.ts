import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { DESKTOP_VIEWPORT, MOBILE_VIEWPORT } from './console-platform.js';
import { pageProblems } from './page-problems.js';

export { clearPageProblems, forgetPageProblems, pageProblems } from './page-problems.js';

/** Git-ignored: services/console/test-artifacts/screenshots/<name>-{desktop,mobile}.png */
export const SCREENSHOT_DIR = fileURLToPath(new URL('../../test-artifacts/screenshots/', import.meta.url));

const BLOCKING_IMPACTS = new Set(['serious', 'critical']);

async function axeViolations(page: Page, label: string): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
  return results.violations
    .filter((v) => v.impact && BLOCKING_IMPACTS.has(v.impact))
    .map((v) => `${label}: ${v.impact} ${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).slice(0, 5).join(', ')}`);
}

/**
 * The checks every page must pass, at 1280×800 and at 390×844: no serious or critical axe-core
 * violation, no console error or uncaught exception so far, no horizontal scrolling of the whole
 * page on a phone; a full-page screenshot of each size is saved. Leaves the page at its
 * original viewport.
 */
export async function checkPage(page: Page, name: string): Promise<void> {
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  const original = page.viewportSize() ?? DESKTOP_VIEWPORT;
  const violations: string[] = [];
  try {
    for (const [size, viewport] of [['desktop', DESKTOP_VIEWPORT], ['mobile', MOBILE_VIEWPORT]] as const) {
      await page.setViewportSize(viewport);
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
      violations.push(...(await axeViolations(page, size)));
      if (size === 'mobile') {
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        if (overflow > 1) violations.push(`mobile: the page scrolls sideways by ${overflow}px at 390 px wide`);
      }
      await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}-${size}.png`), fullPage: true });
    }
  } finally {
    await page.setViewportSize(original);
  }
  expect(violations, `accessibility and layout problems on ${name}`).toEqual([]);
  expect(pageProblems(page), `console errors or uncaught exceptions on ${name}`).toEqual([]);
}
