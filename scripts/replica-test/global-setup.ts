export { setupTemplateDatabase as default } from '@raffle/service-kit/testing';
