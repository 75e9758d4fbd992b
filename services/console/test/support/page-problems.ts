import type { Page } from 'playwright-core';

/** What went wrong on a page: console errors and uncaught exceptions, as text. */
const problemsByPage = new WeakMap<Page, string[]>();

export function recordPageProblems(page: Page): void {
  const problems: string[] = [];
  problemsByPage.set(page, problems);
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console error: ${message.text()} (${message.location().url})`);
  });
  page.on('pageerror', (error) => problems.push(`uncaught: ${error.stack ?? error.message}`));
}

export function pageProblems(page: Page): string[] {
  return [...(problemsByPage.get(page) ?? [])];
}

/** For a journey that provokes an expected error (a 401, a tampered proof): forget what was recorded so far. */
export function clearPageProblems(page: Page): void {
  problemsByPage.get(page)?.splice(0);
}
