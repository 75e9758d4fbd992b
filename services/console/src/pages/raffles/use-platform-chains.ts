import { useQuery } from '@tanstack/react-query';
import { useManagement } from '../../api/clients';

/**
 * The chains on-chain requirements can read (GET /api/dashboard/chains), by name; undefined
 * while loading or when the list could not be read (the API then still judges the names).
 */
export function usePlatformChains(): { names: string[] | undefined; error: unknown } {
  const mgmt = useManagement();
  const query = useQuery({ queryKey: ['platform-chains'], staleTime: 60_000, queryFn: () => mgmt.chains.list() });
  return { names: query.data?.data.map((c) => c.name), error: query.error };
}
