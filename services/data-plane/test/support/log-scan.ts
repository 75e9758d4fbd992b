export { captureLogLine, capturedLogLines, registerSecret, testLogStream } from '@raffle/service-kit/testing/log-scan';
