import { useState } from 'preact/hooks';
import { api } from '../lib/api.js';
import type { DeliveryAttempt, Webhook, WebhookDelivery } from '../lib/types.js';
import { useAction } from '../lib/use-action.js';
import { useLoad } from '../lib/use-load.js';
import { Badge, Card, ErrorNotice, Loading, Notice, when, words } from '../components/ui.js';

/** The latest deliveries shown; the API keeps and answers up to 100. */
const SHOWN = 25;
const STATUS_TONE: Record<string, 'good' | 'warn' | 'bad'> = {
  DELIVERED: 'good',
  PENDING: 'warn',
  FAILED: 'bad',
};
const deliveryPath = (d: WebhookDelivery, tail: string) =>
  `/tenant/webhooks/deliveries/${encodeURIComponent(d.id)}${tail}`;

/** The receiver's answer in words: its HTTP status, else the network error (a timeout, a reset). */
const answer = (status: number | null, error: string | null) =>
  status !== null ? `HTTP ${status}` : error ? words(error) : '—';

/** Every attempt of one delivery: when, the answer, the latency and the retry it scheduled. */
function AttemptLog(props: { delivery: WebhookDelivery }) {
  const d = props.delivery;
  const loaded = useLoad(
    () => api<{ attempts: DeliveryAttempt[] }>('GET', deliveryPath(d, '/attempts')),
    [d.attempts, d.status],
  );
  const attempts = loaded.data?.attempts;
  return (
    <div data-attempts={d.id}>
      <ErrorNotice error={loaded.error} />
      {loaded.loading && !attempts ? <Loading /> : null}
      {attempts && attempts.length === 0 ? <p class="small">No attempt yet: it is due now.</p> : null}
      {attempts && attempts.length > 0 ? (
        <table class="small">
          <caption class="sr-only">Attempts of {d.eventType}</caption>
          <thead>
            <tr>
              <th scope="col">Attempt</th>
              <th scope="col">At</th>
              <th scope="col">Answer</th>
              <th scope="col">Latency</th>
              <th scope="col">Next retry</th>
            </tr>
          </thead>
          <tbody>
            {attempts.map((a) => (
              <tr key={a.attempt} data-attempt={a.attempt}>
                <td>{a.attempt}</td>
                <td>{when(a.at)}</td>
                <td>{answer(a.status, a.error)}</td>
                <td>{a.latencyMs} ms</td>
                <td>{a.nextAttemptAt ? when(a.nextAttemptAt) : '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </div>
  );
}

/** An endpoint's latest deliveries, newest first, each with its attempt log and a replay. */
export function DeliveriesCard(props: { webhook: Webhook; round: number }) {
  const w = props.webhook;
  const [again, setAgain] = useState(0);
  const loaded = useLoad(
    () =>
      api<{ deliveries: WebhookDelivery[] }>(
        'GET',
        `/tenant/webhooks/${encodeURIComponent(w.id)}/deliveries?limit=${SHOWN}`,
      ),
    [w.id, props.round, again],
  );
  const action = useAction(() => setAgain((n) => n + 1));
  const [open, setOpen] = useState<string | undefined>();
  const replay = (d: WebhookDelivery) =>
    void action.run(`replay-${d.id}`, async () => {
      await api('POST', deliveryPath(d, '/replay'));
      return `${d.eventType} is queued again, with the same webhook-id.`;
    });
  const deliveries = loaded.data?.deliveries;
  return (
    <Card title={`Deliveries to ${w.url}`} id="deliveries">
      <p>
        <button
          type="button"
          class="secondary"
          onClick={() => setAgain((n) => n + 1)}
          aria-busy={loaded.loading}
        >
          Refresh deliveries
        </button>
      </p>
      {action.done ? <Notice kind="success">{action.done}</Notice> : null}
      <ErrorNotice error={action.error ?? loaded.error} />
      {loaded.loading && !deliveries ? <Loading /> : null}
      {deliveries && deliveries.length === 0 ? <p>Nothing was sent to this endpoint yet.</p> : null}
      {deliveries && deliveries.length > 0 ? (
        <ul class="deliveries plain">
          {deliveries.map((d) => (
            <li key={d.id} class="delivery" data-delivery={d.eventType} data-status={d.status}>
              <p>
                <strong>{d.eventType}</strong> <Badge tone={STATUS_TONE[d.status]}>{words(d.status)}</Badge>{' '}
                <span class="small muted">
                  {d.attempts} {d.attempts === 1 ? 'attempt' : 'attempts'} · last answer{' '}
                  {answer(d.lastStatus, d.lastError)} ·{' '}
                  {d.nextAttemptAt ? `next retry ${when(d.nextAttemptAt)}` : 'no retry due'} · queued{' '}
                  {when(d.createdAt)}
                </span>
              </p>
              <p class="small">
                webhook-id <code>{d.eventId}</code>
              </p>
              <p>
                <button
                  type="button"
                  class="secondary"
                  aria-expanded={open === d.id}
                  onClick={() => setOpen(open === d.id ? undefined : d.id)}
                >
                  Attempts
                  <span class="sr-only">
                    {' '}
                    of {d.eventType} {d.eventId}
                  </span>
                </button>{' '}
                <button
                  type="button"
                  class="secondary"
                  onClick={() => replay(d)}
                  aria-busy={action.busy === `replay-${d.id}`}
                >
                  Replay
                  <span class="sr-only">
                    {' '}
                    {d.eventType} {d.eventId}
                  </span>
                </button>
              </p>
              {open === d.id ? <AttemptLog delivery={d} /> : null}
            </li>
          ))}
        </ul>
      ) : null}
    </Card>
  );
}
