import { RaffleApiError, RaffleError } from '@raffle/sdk';

/** What went wrong, from the API's error body: its message and the request id to quote to support. */
export function describeError(error: unknown): { message: string; requestId?: string; status?: number } {
  if (error instanceof RaffleApiError) return { message: error.message, requestId: error.requestId ?? undefined, status: error.status };
  if (error instanceof RaffleError) return { message: error.message };
  if (error instanceof Error) return { message: error.message };
  return { message: 'Something went wrong.' };
}

export function ApiErrorNotice({ error }: { error: unknown }) {
  if (!error) return null;
  const { message, requestId, status } = describeError(error);
  return (
    <div role="alert" className="notice notice-error">
      <p className="notice-message">
        {status ? <strong>Error {status}: </strong> : null}
        {message}
      </p>
      {requestId ? (
        <p className="notice-detail">
          Request id: <code>{requestId}</code>
        </p>
      ) : null}
    </div>
  );
}
