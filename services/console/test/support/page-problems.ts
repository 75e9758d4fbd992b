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

/**
 * For a step whose refusal is part of the protocol (a draw answered 409 DRAW_BEACON_PENDING before
 * its beacon round exists, retried by the SDK after Retry-After): forget only the problems that
 * match, so any other error on the page still fails the check.
 */
export function forgetPageProblems(page: Page, expected: RegExp): void {
  const problems = problemsByPage.get(page);
  if (!problems) return;
  const kept = problems.filter((problem) => !expected.test(problem));
  problems.splice(0, problems.length, ...kept);
}
