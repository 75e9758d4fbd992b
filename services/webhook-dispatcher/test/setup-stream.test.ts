import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { jetstreamManager, type JetStreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { startPrivateNatsCluster } from '@raffle/service-kit/testing/faults';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupStream } from '../src/consumer/setup-stream.js';
import { consumerConfig, streamConfig } from '../src/consumer/stream-setup.js';
import { isolatedStreamNames } from './support/app.js';

const run = promisify(execFile);
const CLI = fileURLToPath(new URL('../src/cli/setup-stream.ts', import.meta.url));

let nc: NatsConnection;
let jsm: JetStreamManager;
const created: string[] = [];

beforeAll(async () => {
  nc = await connect({ servers: '127.0.0.1:4222' });
  jsm = await jetstreamManager(nc);
});
afterAll(async () => {
  for (const stream of created) await jsm.streams.delete(stream).catch(() => undefined);
  await nc?.close();
});

describe('the JetStream setup Job (node dist/cli/setup-stream.js)', () => {
  it('creates the stream and the durable consumer as the dispatcher declares them, and a second run changes nothing', async () => {
    const env = isolatedStreamNames();
    created.push(env.NATS_STREAM);
    const names = await setupStream({ ...env, NATS_URL: 'nats://127.0.0.1:4222' });
    expect(names).toEqual({ stream: env.NATS_STREAM, subjectPrefix: env.NATS_SUBJECT_PREFIX, consumer: env.NATS_CONSUMER });

    const stream = await jsm.streams.info(env.NATS_STREAM);
    expect(stream.config).toMatchObject(streamConfig(names));
    const consumer = await jsm.consumers.info(env.NATS_STREAM, env.NATS_CONSUMER);
    expect(consumer.config).toMatchObject(consumerConfig(names));

    await setupStream({ ...env, NATS_URL: 'nats://127.0.0.1:4222' });
    expect((await jsm.streams.info(env.NATS_STREAM)).created).toEqual(stream.created);
  });

  it('runs as a command: exit 0 with the names, exit 1 with the reason when NATS is unreachable', async () => {
    const env = isolatedStreamNames();
    created.push(env.NATS_STREAM);
    const ok = await run(process.execPath, ['--conditions=development', '--import', 'tsx', CLI], { env: { ...process.env, ...env, NATS_URL: 'nats://127.0.0.1:4222' } });
    expect(ok.stdout).toContain(`stream ${env.NATS_STREAM} and consumer ${env.NATS_CONSUMER} are in place`);
    await expect(jsm.consumers.info(env.NATS_STREAM, env.NATS_CONSUMER)).resolves.toBeDefined();

    const failed = run(process.execPath, ['--conditions=development', '--import', 'tsx', CLI], { env: { ...process.env, ...env, NATS_URL: 'nats://127.0.0.1:1' } });
    await expect(failed).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining('setting up the stream failed') });
  });

  it('on a cluster named by a comma-separated NATS_URL, creates the stream with NATS_STREAM_REPLICAS copies', async () => {
    const cluster = await startPrivateNatsCluster(3);
    try {
      const env = isolatedStreamNames();
      const names = await setupStream({ ...env, NATS_URL: cluster.url, NATS_STREAM_REPLICAS: '3' });
      const stream = await cluster.streamInfo(names.stream);
      expect(stream?.config).toMatchObject(streamConfig(names, 3));
      expect(stream?.cluster?.replicas).toHaveLength(2);
      await expect(setupStream({ ...env, NATS_URL: cluster.url, NATS_STREAM_REPLICAS: 'three' })).rejects.toThrow(/NATS_STREAM_REPLICAS/);
    } finally {
      await cluster.destroy();
    }
  });
});
