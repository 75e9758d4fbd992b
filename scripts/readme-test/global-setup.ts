import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { setupTemplateDatabase } from '@raffle/service-kit/testing';
import type { TestProject } from 'vitest/node';
import { buildConsole } from '../platform/console-build.js';

declare module 'vitest' {
  export interface ProvidedContext {
    consoleStaticDir: string;
  }
}

/**
 * The template database every test file clones, and a production build of the developer console
 * (start builds it too) in a folder of the run's own, so a concurrent `vite build` emptying dist
 * cannot break the run.
 */
export default async function setup(project: TestProject) {
  const staticDir = await mkdtemp(path.join(tmpdir(), 'console-dist-'));
  await buildConsole(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..'), staticDir);
  project.provide('consoleStaticDir', staticDir);
  const dropTemplate = await setupTemplateDatabase(project);
  return async () => {
    await dropTemplate();
    await rm(staticDir, { recursive: true, force: true });
  };
}
