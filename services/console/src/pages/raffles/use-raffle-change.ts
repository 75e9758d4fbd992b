import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useToast } from '../../ui/toast';
import { raffleKey } from './raffle-keys';

/**
 * Runs one mutating call on a raffle: a success toast, then everything about the raffle is
 * refetched (a lifecycle action changes entries, wins and the proof too). A failure is rethrown,
 * not toasted: the caller shows it in place (ConfirmButton keeps its dialog open with the error).
 */
export function useRaffleChange(workspaceId: string, raffleId: string) {
  const queryClient = useQueryClient();
  const toast = useToast();
  return useCallback(
    async <T,>(call: () => Promise<T>, success: string): Promise<T> => {
      try {
        const result = await call();
        toast.success(success);
        return result;
      } finally {
        await Promise.all([
          queryClient.invalidateQueries({ queryKey: raffleKey(workspaceId, raffleId) }),
          queryClient.invalidateQueries({ queryKey: ['raffles', workspaceId] }),
        ]);
      }
    },
    [queryClient, toast, workspaceId, raffleId],
  );
}
