import { useEffect, useState } from 'preact/hooks';
import { api, apiFile } from '../lib/api.js';
import { field } from '../lib/form.js';
import { saveFile } from '../lib/save-file.js';
import type { AuditEntry, AuditPage } from '../lib/types.js';
import { isRoleRefusal } from '../lib/use-load.js';
import { Badge, Card, ErrorNotice, Loading, ManagersOnly, when } from '../components/ui.js';

/** Entries per page: "Load more" reads the next one with the cursor. */
const PAGE = 50;

interface Filters {
  action: string;
  actorId: string;
  /** ISO 8601, or '' for the API's default (the 400 days up to now). */
  from: string;
  to: string;
}
const NO_FILTERS: Filters = { action: '', actorId: '', from: '', to: '' };

/** The query of a filtered read; the CSV export takes the same filters. */
function query(filters: Filters, extra: Record<string, string>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries({ ...filters, ...extra })) if (value) params.set(key, value);
  return `/tenant/audit-events?${params.toString()}`;
}

/** A `datetime-local` value (the browser's time zone) as ISO 8601, or '' when empty or invalid. */
function isoOf(local: string): string {
  const date = new Date(local);
  return local && !Number.isNaN(date.getTime()) ? date.toISOString() : '';
}

const actorOf = (e: AuditEntry) => e.actor.email ?? e.actor.id ?? '—';

function EntriesTable(props: { entries: AuditEntry[] }) {
  return (
    <div class="table-wrap" role="region" aria-label="Audit entries table" tabIndex={0}>
      <table>
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">Action</th>
            <th scope="col">Actor</th>
            <th scope="col">Target</th>
            <th scope="col">Outcome</th>
            <th scope="col">Address</th>
            <th scope="col">Request id</th>
          </tr>
        </thead>
        <tbody>
          {props.entries.map((e) => (
            <tr key={e.id} data-audit={e.action}>
              <td>{when(e.occurredAt)}</td>
              <th scope="row">
                <code>{e.action}</code>
              </th>
              <td>
                {actorOf(e)} <span class="small muted">({e.actor.type})</span>
              </td>
              <td>
                {e.target ? (
                  <>
                    {e.target.type} <code class="small">{e.target.id}</code>
                  </>
                ) : (
                  '—'
                )}
                {e.change ? (
                  <span class="small">
                    {' '}
                    {e.change.from ?? '—'} → {e.change.to}
                  </span>
                ) : null}
              </td>
              <td>
                <Badge tone={e.outcome === 'SUCCESS' ? 'good' : 'bad'}>{e.outcome}</Badge>
                {e.reason ? <span class="small"> {e.reason}</span> : null}
              </td>
              <td>{e.ip ?? '—'}</td>
              <td>
                <code class="small">{e.requestId ?? '—'}</code>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * The Audit log page (OWNER and ADMIN): who did what, newest first, filtered by action, actor
 * and time, paged with the API's cursor, and downloaded as CSV with the same filters.
 */
export function AuditLogPage() {
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  const [entries, setEntries] = useState<AuditEntry[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<unknown>();
  const [downloading, setDownloading] = useState(false);

  const read = async (after: string | null, replace: boolean, live: () => boolean = () => true) => {
    setLoading(true);
    setError(undefined);
    try {
      const page = await api<AuditPage>(
        'GET',
        query(filters, { limit: String(PAGE), ...(after ? { cursor: after } : {}) }),
      );
      if (!live()) return;
      setEntries((shown) => (replace ? page.entries : [...shown, ...page.entries]));
      setCursor(page.nextCursor);
    } catch (caught) {
      if (live()) setError(caught);
    } finally {
      if (live()) setLoading(false);
    }
  };
  useEffect(() => {
    let live = true;
    void read(null, true, () => live);
    return () => {
      live = false;
    };
  }, [filters]);

  const apply = (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    setFilters({
      action: field(form, 'action').trim(),
      actorId: field(form, 'actorId').trim(),
      from: isoOf(field(form, 'from')),
      to: isoOf(field(form, 'to')),
    });
  };
  const download = async () => {
    if (downloading) return;
    setDownloading(true);
    setError(undefined);
    try {
      saveFile(await apiFile(query(filters, { format: 'csv' }), 'text/csv'), 'audit-events.csv');
    } catch (caught) {
      setError(caught);
    } finally {
      setDownloading(false);
    }
  };

  if (isRoleRefusal(error)) return <ManagersOnly what="The audit log and its exports" />;
  return (
    <div class="grid">
      <Card title="Filters" id="audit-filters">
        <form onSubmit={apply}>
          <label for="audit-action">Action</label>
          <input id="audit-action" name="action" maxLength={100} placeholder="webhook_endpoint.created" />
          <label for="audit-actor">Actor id (a user or client id)</label>
          <input id="audit-actor" name="actorId" maxLength={100} />
          <label for="audit-from">From</label>
          <input id="audit-from" name="from" type="datetime-local" />
          <label for="audit-to">To</label>
          <input id="audit-to" name="to" type="datetime-local" />
          <p class="small muted">At most 400 days at a time; without dates, the last 400 days.</p>
          <button type="submit">Apply filters</button>{' '}
          <button type="button" class="secondary" onClick={() => void download()} aria-busy={downloading}>
            Download CSV
          </button>
        </form>
      </Card>
      <Card title="Entries" id="audit-entries">
        <ErrorNotice error={error} />
        {entries.length === 0 && !loading && !error ? <p>No entry matches these filters.</p> : null}
        {entries.length > 0 ? <EntriesTable entries={entries} /> : null}
        {loading ? <Loading /> : null}
        {cursor && entries.length > 0 && !loading ? (
          <button type="button" class="secondary" onClick={() => void read(cursor, false)}>
            Load more
          </button>
        ) : null}
      </Card>
    </div>
  );
}
