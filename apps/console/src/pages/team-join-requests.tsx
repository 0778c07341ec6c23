import { useRef } from 'preact/hooks';
import { api } from '../lib/api.js';
import type { JoinRequest } from '../lib/types.js';
import { useAction } from '../lib/use-action.js';
import { useLoad } from '../lib/use-load.js';
import { Card, ErrorNotice, Loading, Notice, when } from '../components/ui.js';

/** Pending join requests (people whose e-mail domain your company gates): approve or reject. */
export function JoinRequestsCard(props: { round: number; onChange: () => void }) {
  const loaded = useLoad(
    () => api<{ requests: JoinRequest[] }>('GET', '/tenant/join-requests'),
    [props.round],
  );
  const action = useAction(props.onChange);
  // The row leaves the list once handled: focus goes to the card's heading, not the document.
  const heading = useRef<HTMLHeadingElement>(null);
  const path = (r: JoinRequest, verb: string) => `/tenant/join-requests/${encodeURIComponent(r.id)}/${verb}`;
  const approve = (r: JoinRequest) =>
    void action.run(`approve-${r.id}`, async () => {
      await api('POST', path(r, 'approve'));
      heading.current?.focus();
      return `${r.email} can now sign in with a sign-in link.`;
    });
  const reject = (r: JoinRequest) => {
    if (!confirm(`Reject the request of ${r.email}? They are not admitted.`)) return;
    void action.run(`reject-${r.id}`, async () => {
      await api('POST', path(r, 'reject'));
      heading.current?.focus();
      return `The request of ${r.email} is rejected.`;
    });
  };
  const requests = loaded.data?.requests;
  return (
    <Card title="Pending join requests" id="join-requests" headingRef={heading}>
      {action.done ? <Notice kind="success">{action.done}</Notice> : null}
      <ErrorNotice error={action.error ?? loaded.error} />
      {loaded.loading && !requests ? <Loading /> : null}
      {requests && requests.length === 0 ? <p>No one is waiting to join.</p> : null}
      {requests && requests.length > 0 ? (
        <ul class="requests">
          {requests.map((r) => (
            <li key={r.id} data-request={r.email}>
              <span>
                <strong>
                  {r.firstName} {r.lastName}
                </strong>{' '}
                {r.email} <span class="muted small">asked {when(r.createdAt)}</span>
              </span>
              <span>
                <button
                  type="button"
                  onClick={() => approve(r)}
                  aria-busy={action.busy === `approve-${r.id}`}
                >
                  Approve {r.email}
                </button>{' '}
                <button
                  type="button"
                  class="danger"
                  onClick={() => reject(r)}
                  aria-busy={action.busy === `reject-${r.id}`}
                >
                  Reject<span class="sr-only"> {r.email}</span>
                </button>
              </span>
            </li>
          ))}
        </ul>
      ) : null}
    </Card>
  );
}
