// Every platform log line a test file captures must hold no key material (see service-kit).
import '@raffle/service-kit/testing/log-scan';
