import { randomBytes } from 'node:crypto';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { setupLocalChain, setupTemplateDatabase } from '@raffle/service-kit/testing';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    natsRunTag: string;
  }
}

const NATS_URL = process.env.TEST_NATS_URL ?? 'nats://127.0.0.1:4222';

/** Streams this run created on the shared NATS server (every name starts with the run's tag). */
async function deleteRunStreams(prefix: string): Promise<void> {
  const nc = await connect({ servers: NATS_URL, timeout: 2000 }).catch(() => null);
  if (!nc) return;
  try {
    const jsm = await jetstreamManager(nc);
    for await (const name of jsm.streams.names()) if (name.startsWith(prefix)) await jsm.streams.delete(name).catch(() => false);
  } finally {
    await nc.close();
  }
}

/**
 * The template database every test file clones, plus a tag for this run's JetStream streams, so
 * the run can delete exactly its own streams afterwards without touching a concurrent run's.
 */
export default async function setup(project: TestProject) {
  const dropTemplate = await setupTemplateDatabase(project);
  // The run's local chain: the every-event test links a wallet on it (wallet.linked).
  const stopChain = await setupLocalChain(project);
  const tag = randomBytes(3).toString('hex');
  project.provide('natsRunTag', tag);
  return async () => {
    await stopChain();
    await deleteRunStreams(`T_${tag}_`);
    await dropTemplate?.();
  };
}
