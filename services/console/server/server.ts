import { serve } from '@raffle/service-kit';
import { buildApp } from './app.js';
import { loadConfig } from './config.js';

await serve(loadConfig, (config) => buildApp(config), { service: 'console' });
