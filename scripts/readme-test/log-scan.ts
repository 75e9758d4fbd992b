// The services' log lines go through the per-file key-material scan and into the run's log scan.
export { captureLogLine } from '@raffle/service-kit/testing/log-scan';
