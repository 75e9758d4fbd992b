import { serve } from '@raffle/service-kit';
import { buildApp } from './app.js';
import { loadConfig } from './config.js';

// In-flight deliveries get DRAIN_TIMEOUT_MS to finish; the rest of shutdown needs a few seconds more.
await serve(loadConfig, (config) => buildApp(config), { service: 'webhook-dispatcher', graceMs: (config) => config.DRAIN_TIMEOUT_MS + 5000 });
