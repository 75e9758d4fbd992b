export * from './binding.js';
export * from './codec.js';
export * from './keys.js';
export * from './limit.js';
export * from './page.js';
export * from './keyset-batches.js';
