import { RaffleApiError } from '@raffle/sdk';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';

/** A 4xx will not change on retry (the SDK already retries what can succeed later). */
const shouldRetry = (failureCount: number, error: unknown) =>
  !(error instanceof RaffleApiError && error.status < 500) && failureCount < 1;

export function AppProviders({ children }: { children: ReactNode }) {
  const [client] = useState(
    () => new QueryClient({ defaultOptions: { queries: { retry: shouldRetry, refetchOnWindowFocus: false, staleTime: 5_000 } } }),
  );
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}
