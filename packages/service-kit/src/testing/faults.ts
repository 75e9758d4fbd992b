/** The fault-test harness: private servers to take away, services as child processes, a load and its tally. */
export { acceptsConnections, freePort } from './free-port.js';
export { startPrivateNats, type PrivateNats } from './private-nats.js';
export { startPrivateRedis, type PrivateRedis } from './private-redis.js';
export { startServiceProcess, type LogLine, type ServiceProcess, type ServiceProcessOptions } from './service-process.js';
export { clock, sendPlanned, sendRepeatedly, startRequestLoad, type PlannedRequest, type RequestLoad, type RequestLoadOptions, type RequestOutcome } from './request-load.js';
export { runFaultScenario, type FaultMarks, type FaultScenarioOptions, type FaultScenarioRun } from './fault-scenario.js';
export { formatFaultTable, recoveryMsOf, tallyFaultScenario, type FaultTally } from './fault-tally.js';
export { errorLogSummary } from './error-log-summary.js';
export { boundedAnswerViolations, databaseOutageViolations, noServerErrorViolations, shutdownViolations, unexpectedStatusViolations, type ErrorBodyCheck } from './fault-checks.js';
export { startPrivatePostgres, type PostgresStopMode, type PrivatePostgres } from './private-postgres.js';
export { runShutdownScenario, type ShutdownScenarioOptions, type ShutdownScenarioRun } from './shutdown-scenario.js';
export { useFaultDependencies, type FaultDependencies, type OwnPostgres } from './fault-dependencies.js';
export { describePostgresOutages, type OutageTarget } from './postgres-outage-suite.js';
export { useLoadedService, type FaultTarget } from './loaded-service.js';
export { describeShutdown, type ShutdownTarget } from './shutdown-suite.js';
export { describeTableLock, type TableLockTarget } from './table-lock-suite.js';
export { holdTableLock, type HeldTableLock } from './table-lock.js';
export { startReadinessProbe, type ReadinessProbe } from './readiness-probe.js';
