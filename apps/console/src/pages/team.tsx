import { useState } from 'preact/hooks';
import { api } from '../lib/api.js';
import type { JoinRequest } from '../lib/types.js';
import { useLoad } from '../lib/use-load.js';
import { Card, ErrorNotice, Loading, Notice, when } from '../components/ui.js';

/** Pending join requests (people whose e-mail domain your company gates) and their approval. */
export function TeamPage() {
  const loaded = useLoad(() => api<{ requests: JoinRequest[] }>('GET', '/tenant/join-requests'));
  const [approved, setApproved] = useState<string | undefined>();
  const [error, setError] = useState<unknown>();
  const approve = async (request: JoinRequest) => {
    setError(undefined);
    try {
      await api('POST', `/tenant/join-requests/${encodeURIComponent(request.id)}/approve`);
      setApproved(request.email);
      loaded.reload();
    } catch (caught) {
      setError(caught);
    }
  };
  return (
    <Card title="Pending join requests" id="join-requests">
      {approved ? <Notice kind="success">{approved} can now sign in with a sign-in link.</Notice> : null}
      <ErrorNotice error={error ?? loaded.error} />
      {loaded.loading && !loaded.data ? <Loading /> : null}
      {loaded.data && loaded.data.requests.length === 0 ? <p>No one is waiting to join.</p> : null}
      {loaded.data && loaded.data.requests.length > 0 ? (
        <ul class="requests">
          {loaded.data.requests.map((r) => (
            <li key={r.id} data-request={r.email}>
              <span>
                <strong>
                  {r.firstName} {r.lastName}
                </strong>{' '}
                {r.email} <span class="muted small">asked {when(r.createdAt)}</span>
              </span>
              <button type="button" onClick={() => void approve(r)}>
                Approve {r.email}
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </Card>
  );
}
