import type { FastifyInstance } from 'fastify';
import type { Config } from './config.js';

/*
 * The dispatcher's own decorations, read through these accessors instead of a `declare module
 * 'fastify'`: an augmentation is global, and the other services decorate `config` with types of
 * their own, so one typecheck of all of them would clash.
 */

export const configOf = (app: FastifyInstance) => app.getDecorator<Config>('config');
