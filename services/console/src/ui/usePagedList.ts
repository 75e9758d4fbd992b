import type { Page } from '@raffle/sdk';
import { keepPreviousData, useQuery, type QueryKey } from '@tanstack/react-query';
import { useCallback, useState } from 'react';

export type PagedListState<T> = {
  items: T[];
  isLoading: boolean;
  error: unknown;
  hasNext: boolean;
  next(): void;
  hasPrev: boolean;
  prev(): void;
  /** 1-based, for "Page 2". */
  pageNumber: number;
  refetch(): void;
};

/**
 * One page of a cursor-paginated list at a time. The API's cursors only go forward, so going
 * back pops a stack of the cursors that led here. A new queryKey starts from the first page.
 */
export function usePagedList<T>(queryKey: QueryKey, fetchPage: (cursor?: string) => Promise<Page<T>>): PagedListState<T> {
  const keyText = JSON.stringify(queryKey);
  const [stack, setStack] = useState<{ key: string; cursors: string[] }>({ key: keyText, cursors: [] });
  const cursors = stack.key === keyText ? stack.cursors : [];
  const cursor = cursors.at(-1);
  const query = useQuery({
    queryKey: [...queryKey, 'page', cursor ?? null],
    queryFn: () => fetchPage(cursor),
    placeholderData: keepPreviousData,
  });
  const nextCursor = query.data?.pagination.nextCursor ?? null;
  const next = useCallback(() => {
    if (nextCursor) setStack({ key: keyText, cursors: [...cursors, nextCursor] });
  }, [nextCursor, keyText, cursors]);
  const prev = useCallback(() => setStack({ key: keyText, cursors: cursors.slice(0, -1) }), [keyText, cursors]);
  return {
    items: query.data?.data ?? [],
    isLoading: query.isLoading,
    error: query.error,
    hasNext: Boolean(nextCursor),
    next,
    hasPrev: cursors.length > 0,
    prev,
    pageNumber: cursors.length + 1,
    refetch: () => void query.refetch(),
  };
}
