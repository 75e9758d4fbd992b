import { DrizzleQueryError } from 'drizzle-orm/errors';
import postgres from 'postgres';
import { describe, expect, it } from 'vitest';
import { ConnectionWaitTimeoutError, isConnectionError, isDatabaseTimeout, isTransientTransactionFailure } from '../src/index.js';

const withCode = (code: string) => Object.assign(new Error(code), { code });
const wrapped = (cause: unknown) => new DrizzleQueryError('select 1', [], cause as Error);

const CONNECTION_CODES = [
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
  'CONNECT_TIMEOUT',
  '57P01',
  '57P02',
  '57P03',
  '08000',
  '08003',
  '08006',
  '08001',
  '08004',
  '53300',
];

describe('isConnectionError', () => {
  it.each(CONNECTION_CODES)('recognises %s, bare and wrapped by drizzle', (code) => {
    expect(isConnectionError(withCode(code))).toBe(true);
    expect(isConnectionError(wrapped(withCode(code)))).toBe(true);
  });

  it('recognises a Postgres error by its SQLSTATE', () => {
    const shuttingDown = new postgres.PostgresError({ message: 'the database system is shutting down', code: '57P03' } as never);
    expect(isConnectionError(shuttingDown)).toBe(true);
    expect(isConnectionError(wrapped(shuttingDown))).toBe(true);
  });

  it('recognises the wait-for-a-connection deadline', () => {
    expect(isConnectionError(new ConnectionWaitTimeoutError(1000))).toBe(true);
    expect(isConnectionError(wrapped(new ConnectionWaitTimeoutError(1000)))).toBe(true);
  });

  it('follows a cause chain deeper than one wrapper', () => {
    expect(isConnectionError(new Error('outer', { cause: wrapped(withCode('ECONNREFUSED')) }))).toBe(true);
  });

  it('recognises an AggregateError when one of its errors is a connection failure', () => {
    const allAddresses = new AggregateError([withCode('EADDRNOTAVAIL'), withCode('ECONNREFUSED')], 'connect failed');
    expect(isConnectionError(allAddresses)).toBe(true);
    expect(isConnectionError(wrapped(allAddresses))).toBe(true);
  });

  it.each(['23505', '22021', '22008', '40001', '57014', '42P01', 'ERR_INVALID_ARG_TYPE'])('does not count %s', (code) => {
    expect(isConnectionError(withCode(code))).toBe(false);
    expect(isConnectionError(wrapped(withCode(code)))).toBe(false);
  });

  it('is false for anything that is not an error with a code', () => {
    for (const value of [undefined, null, 'ECONNREFUSED', 42, {}, new Error('ECONNREFUSED'), { code: 57 }]) {
      expect(isConnectionError(value)).toBe(false);
    }
  });

  it('stops on a cause cycle', () => {
    const a = new Error('a') as Error & { cause?: unknown };
    const b = new Error('b', { cause: a });
    a.cause = b;
    expect(isConnectionError(a)).toBe(false);
  });
});

describe('isTransientTransactionFailure', () => {
  it.each(['40001', '40P01'])('counts %s, bare or wrapped by drizzle', (code) => {
    expect(isTransientTransactionFailure(withCode(code))).toBe(true);
    expect(isTransientTransactionFailure(wrapped(withCode(code)))).toBe(true);
  });

  it.each(['23505', 'ECONNREFUSED', '57P01', '40002'])('does not count %s', (code) => {
    expect(isTransientTransactionFailure(withCode(code))).toBe(false);
  });
});

describe('isDatabaseTimeout', () => {
  const postgresError = (code: string, message: string) => new postgres.PostgresError({ code, message } as never);

  it('counts a lock wait past lock_timeout (55P03), bare or wrapped by drizzle', () => {
    const lockTimeout = postgresError('55P03', 'canceling statement due to lock timeout');
    expect(isDatabaseTimeout(lockTimeout)).toBe(true);
    expect(isDatabaseTimeout(wrapped(lockTimeout))).toBe(true);
  });

  it('counts a statement past statement_timeout (57014 with its message), bare or wrapped', () => {
    const statementTimeout = postgresError('57014', 'canceling statement due to statement timeout');
    expect(isDatabaseTimeout(statementTimeout)).toBe(true);
    expect(isDatabaseTimeout(wrapped(statementTimeout))).toBe(true);
  });

  it("does not count a cancel for another reason: the driver's own, or pg_cancel_backend", () => {
    expect(isDatabaseTimeout(postgresError('57014', 'canceling statement due to user request'))).toBe(false);
    expect(isDatabaseTimeout(wrapped(withCode('57014')))).toBe(false);
  });

  it.each(['23505', '40001', '57P01', 'ECONNREFUSED', 'CONNECT_TIMEOUT'])('does not count %s', (code) => {
    expect(isDatabaseTimeout(withCode(code))).toBe(false);
  });

  it('is not a connection error: the database answered, it refused to wait', () => {
    expect(isConnectionError(postgresError('55P03', 'canceling statement due to lock timeout'))).toBe(false);
    expect(isConnectionError(postgresError('57014', 'canceling statement due to statement timeout'))).toBe(false);
  });
});
