import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { useToast } from '../../ui/toast.js';
import { webhookKeys, type WebhookScope } from './webhook-api.js';

type RunOptions = {
  /** Throw the failure on (to a form or confirm dialog, which show it in place) instead of keeping it here. */
  rethrow?: boolean;
  /** The endpoint is gone: drop its cached data (and the list's) rather than fetch a 404. */
  forget?: boolean;
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
      const affected = [webhookKeys.endpoint(scope, endpointId), webhookKeys.attempts(scope, endpointId), webhookKeys.endpoints(scope)];
      // Forgotten, the list loads afresh instead of showing the deleted endpoint until its refetch.
      if (options.forget) for (const queryKey of affected) queryClient.removeQueries({ queryKey });
      else await Promise.all(affected.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
      return result;
    },
    [toast, queryClient, scope, endpointId],
  );

  return { run, failure };
}
