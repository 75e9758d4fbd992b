import './raffle-pages.css';
import type { ListRafflesParams } from '@raffle/sdk';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import { useManagement } from '../../api/clients';
import { useScope } from '../../scope/scope';
import { ApiErrorNotice } from '../../ui/ApiErrorNotice';
import { DateTime } from '../../ui/DateTime';
import { EmptyState } from '../../ui/EmptyState';
import { Pager } from '../../ui/Pager';
import { useDebouncedValue } from '../../ui/useDebouncedValue';
import { usePagedList } from '../../ui/usePagedList';
import { humanize, RAFFLE_MECHANICS, RAFFLE_STATUSES } from './raffle-rules';
import { StatusBadge } from './StatusBadge';
import { ScrollTable } from './ScrollTable';

const PAGE_SIZE = 50;
/** A search is sent once typing pauses this long. */
const SEARCH_DELAY_MS = 300;

/** The list's query: the filters the API applies on the server, so every page holds only matches. */
function listQuery(status: string, mechanic: string, search: string): ListRafflesParams {
  const q = search.trim();
  return {
    limit: PAGE_SIZE,
    ...(status === 'all' ? {} : { status: status as ListRafflesParams['status'] }),
    ...(mechanic === 'all' ? {} : { mechanic: mechanic as ListRafflesParams['mechanic'] }),
    ...(q === '' ? {} : { q }),
  };
}

/** One of the list's filters: "All", or one of `values`. */
function FilterSelect(props: { id: string; label: string; values: readonly string[]; value: string; onChange(value: string): void }) {
  return (
    <div className="form-field">
      <label className="form-label" htmlFor={props.id}>
        {props.label}
      </label>
      <select id={props.id} value={props.value} onChange={(e) => props.onChange(e.target.value)}>
        <option value="all">All</option>
        {props.values.map((v) => (
          <option key={v} value={v}>
            {humanize(v)}
          </option>
        ))}
      </select>
    </div>
  );
}

/** A workspace's raffles, newest first, filtered by status and mechanic and searched by title or slug on the server. */
export default function RafflesPage() {
  const mgmt = useManagement();
  const { scope, basePath, can } = useScope();
  const manage = can('manage');
  const [status, setStatus] = useState('all');
  const [mechanic, setMechanic] = useState('all');
  const [search, setSearch] = useState('');
  const settledSearch = useDebouncedValue(search, SEARCH_DELAY_MS);
  const filterNoteId = useId();
  const workspaceId = scope.kind === 'workspace' ? scope.workspaceId : '';
  const query = listQuery(status, mechanic, settledSearch);
  const filtered = Object.keys(query).length > 1;
  // The filters are part of the key: a change starts again from the first page.
  const list = usePagedList(['raffles', workspaceId, query], (cursor?: string) => mgmt.workspaces.raffles.list(workspaceId, query).page({ cursor }));

  if (scope.kind !== 'workspace') return <p>Raffles belong to workspaces: choose one in the workspace switcher.</p>;
  const shown = list.items;
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
        <FilterSelect id="raffle-status-filter" label="Status" values={RAFFLE_STATUSES} value={status} onChange={setStatus} />
        <FilterSelect id="raffle-mechanic-filter" label="Mechanic" values={RAFFLE_MECHANICS} value={mechanic} onChange={setMechanic} />
        <div className="form-field">
          <label className="form-label" htmlFor="raffle-search">Search title or slug</label>
          <input id="raffle-search" type="search" maxLength={100} value={search} onChange={(e) => setSearch(e.target.value)} />
        </div>
        <p className="form-hint" id={filterNoteId}>
          Every raffle of the workspace is filtered and searched, not only this page; Next shows older matches.
        </p>
      </form>
      {list.error ? <ApiErrorNotice error={list.error} /> : null}
      {list.isLoading ? <p role="status">Loading raffles…</p> : null}
      {!list.isLoading && !list.error && list.items.length === 0 && !list.hasPrev && !filtered ? (
        <EmptyState title="No raffles yet">
          {manage.allowed ? <p>Create a raffle: it starts as a draft, and nothing is announced until you publish it.</p> : <p>The workspace's owners and admins create raffles; they will appear here.</p>}
          {createLink}
        </EmptyState>
      ) : null}
      {!list.isLoading && !list.error && list.items.length === 0 && filtered ? <p role="status">No raffle matches the filter.</p> : null}
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
