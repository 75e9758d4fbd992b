import './raffle-pages.css';
import type { RaffleListItem } from '@raffle/sdk';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import { useManagement } from '../../api/clients';
import { useScope } from '../../scope/scope';
import { ApiErrorNotice } from '../../ui/ApiErrorNotice';
import { DateTime } from '../../ui/DateTime';
import { EmptyState } from '../../ui/EmptyState';
import { Pager } from '../../ui/Pager';
import { usePagedList } from '../../ui/usePagedList';
import { humanize, RAFFLE_STATUSES } from './raffle-rules';
import { StatusBadge } from './StatusBadge';
import { ScrollTable } from './ScrollTable';

/** The list API takes no status or search filter, so a full page is loaded and filtered here. */
const PAGE_SIZE = 100;

function matches(raffle: RaffleListItem, status: string, search: string): boolean {
  if (status !== 'all' && raffle.status !== status) return false;
  const needle = search.trim().toLowerCase();
  return needle === '' || raffle.title.toLowerCase().includes(needle) || raffle.slug.includes(needle);
}

/** A workspace's raffles, newest first, with a status filter and search over the loaded page. */
export default function RafflesPage() {
  const mgmt = useManagement();
  const { scope, basePath, can } = useScope();
  const manage = can('manage');
  const [status, setStatus] = useState('all');
  const [search, setSearch] = useState('');
  const filterNoteId = useId();
  const workspaceId = scope.kind === 'workspace' ? scope.workspaceId : '';
  const list = usePagedList(['raffles', workspaceId], (cursor?: string) =>
    mgmt.workspaces.raffles.list(workspaceId, { limit: PAGE_SIZE }).page({ cursor }),
  );

  if (scope.kind !== 'workspace') return <p>Raffles belong to workspaces: choose one in the workspace switcher.</p>;
  const shown = list.items.filter((r) => matches(r, status, search));
  const createLink = manage.allowed ? (
    <Link className="button button-primary" to={`${basePath}/raffles/new`}>
      Create a raffle
    </Link>
  ) : (
    <p className="form-hint">{manage.reason}</p>
  );

  return (
    <section aria-labelledby="raffles-heading">
      <div className="page-header">
        <h1 id="raffles-heading">Raffles</h1>
        {manage.allowed ? createLink : null}
      </div>
      <form className="filters" role="search" aria-describedby={filterNoteId} onSubmit={(e) => e.preventDefault()}>
        <div className="form-field">
          <label className="form-label" htmlFor="raffle-status-filter">Status</label>
          <select id="raffle-status-filter" value={status} onChange={(e) => setStatus(e.target.value)}>
            <option value="all">All</option>
            {RAFFLE_STATUSES.map((s) => (
              <option key={s} value={s}>
                {humanize(s)}
              </option>
            ))}
          </select>
        </div>
        <div className="form-field">
          <label className="form-label" htmlFor="raffle-search">Search title or slug</label>
          <input id="raffle-search" type="search" value={search} onChange={(e) => setSearch(e.target.value)} />
        </div>
        <p className="form-hint" id={filterNoteId}>
          The raffles API has no status or search filter, so these filter the page loaded below (up to {PAGE_SIZE} raffles); use Next for older ones.
        </p>
      </form>
      {list.error ? <ApiErrorNotice error={list.error} /> : null}
      {list.isLoading ? <p role="status">Loading raffles…</p> : null}
      {!list.isLoading && !list.error && list.items.length === 0 && !list.hasPrev ? (
        <EmptyState title="No raffles yet">
          {manage.allowed ? <p>Create a raffle: it starts as a draft, and nothing is announced until you publish it.</p> : <p>The workspace's owners and admins create raffles; they will appear here.</p>}
          {createLink}
        </EmptyState>
      ) : null}
      {list.items.length > 0 && shown.length === 0 ? <p role="status">No raffle on this page matches the filter.</p> : null}
      {shown.length > 0 ? (
        <ScrollTable label={`Raffles of ${scope.workspaceName}`}>
            <thead>
              <tr>
                <th scope="col">Title</th>
                <th scope="col">Status</th>
                <th scope="col">Mechanic</th>
                <th scope="col">Spots</th>
                <th scope="col">Visibility</th>
                <th scope="col">Ends</th>
              </tr>
            </thead>
            <tbody>
              {shown.map((raffle) => (
                <tr key={raffle.id}>
                  <td>
                    <Link to={`${basePath}/raffles/${raffle.id}`}>{raffle.title}</Link>
                    <br />
                    <small className="mono">{raffle.slug}</small>
                  </td>
                  <td>
                    <StatusBadge status={raffle.status} />
                  </td>
                  <td>{raffle.mechanic}</td>
                  <td>{raffle.spots}</td>
                  <td>{raffle.visibility}</td>
                  <td>{raffle.endsAt ? <DateTime value={raffle.endsAt} /> : '—'}</td>
                </tr>
              ))}
            </tbody>
          </ScrollTable>
      ) : null}
      <Pager list={list} label="Raffles pages" />
    </section>
  );
}
