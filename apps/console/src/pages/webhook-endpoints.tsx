import { useRef } from 'preact/hooks';
import { api } from '../lib/api.js';
import { eventTypeLabel } from '../lib/event-types.js';
import type { RotatedWebhookSecret, Webhook, WebhookDelivery } from '../lib/types.js';
import { useAction, type Action } from '../lib/use-action.js';
import { Badge, Card, ErrorNotice, Notice, when } from '../components/ui.js';

/** A signing secret as the API answered it once (made or rotated). */
export interface NewSecret {
  url: string;
  secret: string;
  why: 'created' | 'rotated';
  previousExpiresAt?: string;
}

const webhookPath = (w: Webhook, tail = '') => `/tenant/webhooks/${encodeURIComponent(w.id)}${tail}`;

function Status(props: { webhook: Webhook }) {
  const w = props.webhook;
  if (w.enabled)
    return w.failingSince ? (
      <Badge tone="warn">Failing since {when(w.failingSince)}</Badge>
    ) : (
      <Badge tone="good">Enabled</Badge>
    );
  return <Badge tone="bad">{w.disabledReason === 'FAILING' ? 'Disabled: kept failing' : 'Disabled'}</Badge>;
}

interface RowProps {
  webhook: Webhook;
  action: Action;
  selected: boolean;
  onSelect: (w: Webhook) => void;
  onSecret: (secret: NewSecret) => void;
  onDeleted: () => void;
}

function EndpointRow(props: RowProps) {
  const { webhook: w, action } = props;
  const busy = (key: string) => action.busy === `${key}-${w.id}`;
  // One button that changes its words (not two that swap), so keyboard focus stays on it.
  const toggle = () =>
    void action.run(`toggle-${w.id}`, async () => {
      await api('PATCH', webhookPath(w), { enabled: !w.enabled });
      return w.enabled ? `${w.url} is disabled: nothing is sent to it.` : `${w.url} is enabled again.`;
    });
  const test = () =>
    void action.run(`test-${w.id}`, async () => {
      await api<{ delivery: WebhookDelivery }>('POST', webhookPath(w, '/test'));
      props.onSelect(w);
      return `A test event is on its way to ${w.url}: see its deliveries.`;
    });
  const rotate = () => {
    if (!confirm(`Rotate the signing secret of ${w.url}? The current one keeps signing for 24 hours.`))
      return;
    void action.run(`rotate-${w.id}`, async () => {
      const rotated = await api<RotatedWebhookSecret>('POST', webhookPath(w, '/rotate-secret'));
      props.onSecret({
        url: w.url,
        secret: rotated.secret,
        why: 'rotated',
        previousExpiresAt: rotated.previousSecretExpiresAt,
      });
      return `The secret of ${w.url} is rotated.`;
    });
  };
  const remove = () => {
    if (!confirm(`Delete the endpoint ${w.url}? Events waiting for it are dropped.`)) return;
    void action
      .run(`delete-${w.id}`, async () => {
        await api('DELETE', webhookPath(w));
        return `The endpoint ${w.url} is deleted.`;
      })
      .then((made) => made && props.onDeleted());
  };
  return (
    <tr data-webhook={w.url} data-enabled={String(w.enabled)}>
      <th scope="row">
        <code>{w.url}</code>
      </th>
      <td>
        <ul class="small plain">
          {w.types.map((t) => (
            <li key={t}>{eventTypeLabel(t)}</li>
          ))}
        </ul>
      </td>
      <td>
        <Status webhook={w} />
      </td>
      <td>{when(w.createdAt)}</td>
      <td class="actions">
        <button
          type="button"
          class="secondary"
          aria-pressed={props.selected}
          onClick={() => props.onSelect(w)}
        >
          Deliveries<span class="sr-only"> to {w.url}</span>
        </button>{' '}
        <button type="button" class="secondary" onClick={test} aria-busy={busy('test')}>
          Send test event<span class="sr-only"> to {w.url}</span>
        </button>{' '}
        <button type="button" class="secondary" onClick={toggle} aria-busy={busy('toggle')}>
          {w.enabled ? 'Disable' : 'Enable'}
          <span class="sr-only"> {w.url}</span>
        </button>{' '}
        <button type="button" class="secondary" onClick={rotate} aria-busy={busy('rotate')}>
          Rotate secret<span class="sr-only"> of {w.url}</span>
        </button>{' '}
        <button type="button" class="danger" onClick={remove} aria-busy={busy('delete')}>
          Delete<span class="sr-only"> {w.url}</span>
        </button>
      </td>
    </tr>
  );
}

/** The tenant's endpoints (never a secret) and what a manager may do with each. */
export function EndpointsCard(props: {
  webhooks: Webhook[];
  error: unknown;
  selected: string | undefined;
  onSelect: (w: Webhook | undefined) => void;
  onSecret: (secret: NewSecret) => void;
  onChange: () => void;
}) {
  const action = useAction(props.onChange);
  const heading = useRef<HTMLHeadingElement>(null);
  return (
    <Card title="Endpoints" id="endpoints" headingRef={heading}>
      {action.done ? <Notice kind="success">{action.done}</Notice> : null}
      <ErrorNotice error={action.error ?? props.error} />
      {props.webhooks.length === 0 ? <p>No endpoint yet.</p> : null}
      {props.webhooks.length > 0 ? (
        <div class="table-wrap" role="region" aria-label="Endpoints table" tabIndex={0}>
          <table>
            <thead>
              <tr>
                <th scope="col">URL</th>
                <th scope="col">Events</th>
                <th scope="col">Status</th>
                <th scope="col">Added</th>
                <th scope="col">
                  <span class="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {props.webhooks.map((w) => (
                <EndpointRow
                  key={w.id}
                  webhook={w}
                  action={action}
                  selected={props.selected === w.id}
                  onSelect={props.onSelect}
                  onSecret={props.onSecret}
                  onDeleted={() => {
                    if (props.selected === w.id) props.onSelect(undefined);
                    heading.current?.focus();
                  }}
                />
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </Card>
  );
}
