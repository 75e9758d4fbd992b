import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { setupTemplateDatabase } from '@raffle/service-kit/testing';
import type { TestProject } from 'vitest/node';
import { buildConsole } from '../../../../scripts/platform/console-build.js';

declare module 'vitest' {
  export interface ProvidedContext {
    consoleStaticDir: string;
  }
}

/**
 * Once per run: the template database every test file's platform clones, and a production build
 * of the console in a folder of the run's own. Not dist: a `vite build` elsewhere (a developer,
 * another run) empties dist while it builds, and a page loaded in that moment would be blank.
 */
export default async function setup(project: TestProject) {
  const staticDir = await mkdtemp(path.join(tmpdir(), 'console-dist-'));
  await buildConsole(fileURLToPath(new URL('../../../../', import.meta.url)), staticDir);
  project.provide('consoleStaticDir', staticDir);
  const dropTemplate = await setupTemplateDatabase(project);
  return async () => {
    await dropTemplate();
    await rm(staticDir, { recursive: true, force: true });
  };
}
