import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { useToast } from '../../ui/toast.js';
import { webhookKeys, type WebhookScope } from './webhook-api.js';

/** What an action on the endpoint changes: the endpoint, its delivery log, and the list of endpoints. */
const endpointQueryKeys = (scope: WebhookScope, endpointId: string) => [
  webhookKeys.endpoint(scope, endpointId),
  webhookKeys.attempts(scope, endpointId),
  webhookKeys.endpoints(scope),
];

/**
 * Drops a deleted endpoint's caches, so the list loads afresh instead of showing it until its
 * refetch. Only once nothing that shows the endpoint is mounted: a mounted query whose cache is
 * dropped fetches again, and the endpoint is a 404 now.
 */
export function forgetEndpoint(queryClient: QueryClient, scope: WebhookScope, endpointId: string): void {
  for (const queryKey of endpointQueryKeys(scope, endpointId)) queryClient.removeQueries({ queryKey });
}

type RunOptions = {
  /** Throw the failure on (to a form or confirm dialog, which show it in place) instead of keeping it here. */
  rethrow?: boolean;
  /** The endpoint is gone: fetch nothing of it again (a 404); the page drops its caches once it has left (forgetEndpoint). */
  gone?: boolean;
};

/**
 * Runs one mutation the way every endpoint action needs it: a toast either way, the failure's
 * message and request id kept on the page, and the endpoint, its delivery log and the list
 * fetched again. Resolves to the result, or undefined when it failed (already reported).
 */
export function useEndpointAction(scope: WebhookScope, endpointId: string) {
  const toast = useToast();
  const queryClient = useQueryClient();
  const [failure, setFailure] = useState<unknown>(null);

  const run = useCallback(
    async <T>(call: () => Promise<T>, success: (result: T) => string, options: RunOptions = {}): Promise<T | undefined> => {
      setFailure(null);
      let result: T;
      try {
        result = await call();
      } catch (error) {
        toast.error(error);
        if (options.rethrow) throw error;
        setFailure(error);
        return undefined;
      }
      toast.success(success(result));
      if (!options.gone) await Promise.all(endpointQueryKeys(scope, endpointId).map((queryKey) => queryClient.invalidateQueries({ queryKey })));
      return result;
    },
    [toast, queryClient, scope, endpointId],
  );

  return { run, failure };
}
