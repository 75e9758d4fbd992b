import type { PagedListState } from './usePagedList.js';

/** Previous / next for a cursor-paginated list; hidden when everything fits on one page. */
export function Pager({ list, label = 'Pages' }: { list: Pick<PagedListState<unknown>, 'hasNext' | 'hasPrev' | 'next' | 'prev' | 'pageNumber'>; label?: string }) {
  if (!list.hasNext && !list.hasPrev) return null;
  return (
    <nav className="pager" aria-label={label}>
      <button type="button" className="button" onClick={list.prev} disabled={!list.hasPrev}>
        Previous
      </button>
      <span className="pager-page">Page {list.pageNumber}</span>
      <button type="button" className="button" onClick={list.next} disabled={!list.hasNext}>
        Next
      </button>
    </nav>
  );
}
