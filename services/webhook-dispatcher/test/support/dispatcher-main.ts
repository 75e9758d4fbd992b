import { serve } from '@raffle/service-kit';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';

/**
 * src/server.ts plus the one fault a fault test may arm (the switch lives here, never in src):
 * FAULT_KILL_AFTER_RELAY_BATCH=N SIGKILLs this process once relay batch N is published and
 * before the transaction that marks it commits.
 */
const killAfterBatch = Number(process.env.FAULT_KILL_AFTER_RELAY_BATCH ?? 0);
let batches = 0;

const afterRelayPublish =
  killAfterBatch > 0
    ? async () => {
        batches += 1;
        if (batches < killAfterBatch) return;
        process.stdout.write(`${JSON.stringify({ msg: 'fault: SIGKILL after publishing relay batch', batch: batches })}\n`);
        process.kill(process.pid, 'SIGKILL');
        await new Promise(() => undefined);
      }
    : undefined;

await serve(loadConfig, (config) => buildApp(config, { afterRelayPublish }), { service: 'webhook-dispatcher' });
