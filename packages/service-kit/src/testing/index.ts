export { createTestDatabase, dropTemplateDatabase, prepareTemplateDatabase, type TestDatabase } from './database.js';
export { default as setupTemplateDatabase } from './global-setup.js';
