import { setupStream } from '../consumer/setup-stream.js';

// node dist/cli/setup-stream.js: the JetStream setup Job's command (infra/k8s/setup).
try {
  const names = await setupStream(process.env);
  console.log(`stream ${names.stream} and consumer ${names.consumer} are in place`);
} catch (error) {
  console.error(`setting up the stream failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
