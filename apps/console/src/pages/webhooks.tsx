import { useCallback, useState } from 'preact/hooks';
import { api } from '../lib/api.js';
import { EVENT_TYPES, eventTypeLabel } from '../lib/event-types.js';
import { field, fields } from '../lib/form.js';
import type { CreatedWebhook, Webhook } from '../lib/types.js';
import { isRoleRefusal, useLoad } from '../lib/use-load.js';
import { Card, ErrorNotice, Loading, ManagersOnly, Notice, when } from '../components/ui.js';
import { EndpointsCard, type NewSecret } from './webhook-endpoints.js';
import { DeliveriesCard } from './webhook-deliveries.js';

/** Shown once: the API answers the secret only when it is made or rotated, never again. */
function SecretOnce(props: { secret: NewSecret; onDismiss: () => void }) {
  const [copied, setCopied] = useState(false);
  const { secret } = props;
  const copy = async () => {
    await navigator.clipboard.writeText(secret.secret);
    setCopied(true);
  };
  return (
    <div class="secret" role="region" aria-label="New signing secret">
      <Notice kind="warning">
        {secret.why === 'created' ? 'Endpoint added.' : 'Secret rotated.'} Copy the signing secret now: you
        won't see it again. It is shown only once and cannot be read back.
        {secret.previousExpiresAt
          ? ` The previous secret keeps signing beside it until ${when(secret.previousExpiresAt)}.`
          : ''}
      </Notice>
      <dl>
        <dt>Endpoint</dt>
        <dd>
          <code>{secret.url}</code>
        </dd>
        <dt>Signing secret</dt>
        <dd>
          <code data-testid="webhook-secret">{secret.secret}</code>
        </dd>
      </dl>
      <button type="button" onClick={() => void copy().catch(() => setCopied(false))}>
        {copied ? 'Copied' : 'Copy secret'}
      </button>{' '}
      <button type="button" class="secondary" onClick={props.onDismiss}>
        I have stored it
      </button>
    </div>
  );
}

function CreateCard(props: { onCreated: (made: CreatedWebhook) => void }) {
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const create = async (event: Event) => {
    event.preventDefault();
    if (busy) return;
    const formElement = event.currentTarget as HTMLFormElement;
    const form = new FormData(formElement);
    setError(undefined);
    setBusy(true);
    try {
      const made = await api<CreatedWebhook>('POST', '/tenant/webhooks', {
        url: field(form, 'url'),
        types: fields(form, 'types'),
        enabled: field(form, 'enabled') === 'on',
      });
      formElement.reset();
      props.onCreated(made);
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card title="Add an endpoint" id="add-endpoint">
      <p class="muted small">
        An <code>https</code> address of yours on the public internet. Each request is signed (Standard
        Webhooks headers); check it with <code>verifyWebhook</code> from <code>@tap/client</code>.
      </p>
      <ErrorNotice error={error} />
      <form onSubmit={(e) => void create(e)}>
        <label for="webhook-url">Endpoint URL</label>
        <input id="webhook-url" name="url" type="url" required maxLength={2048} placeholder="https://" />
        <fieldset>
          <legend>Events to send</legend>
          <div class="checks">
            {EVENT_TYPES.map((type) => (
              <label key={type} class="check">
                <input type="checkbox" name="types" value={type} /> {eventTypeLabel(type)}{' '}
                <code class="small">{type}</code>
              </label>
            ))}
          </div>
        </fieldset>
        <label class="check">
          <input type="checkbox" name="enabled" defaultChecked /> Enabled: send events as they happen
        </label>
        <button type="submit" aria-busy={busy}>
          Add endpoint
        </button>
      </form>
    </Card>
  );
}

/**
 * The Webhooks page (OWNER and ADMIN): endpoints with their secret shown once, enable and
 * disable, test events, rotation, deletion, and each endpoint's deliveries with their attempts
 * and replay. A MEMBER is told who manages them (the API's 403), not shown a refusal.
 */
export function WebhooksPage() {
  const [round, setRound] = useState(0);
  const changed = useCallback(() => setRound((r) => r + 1), []);
  const loaded = useLoad(() => api<{ webhooks: Webhook[] }>('GET', '/tenant/webhooks'), [round]);
  const [secret, setSecret] = useState<NewSecret | undefined>();
  const [selected, setSelected] = useState<Webhook | undefined>();
  if (isRoleRefusal(loaded.error)) return <ManagersOnly what="Webhooks" />;
  const webhooks = loaded.data?.webhooks;
  const shown = selected && webhooks?.find((w) => w.id === selected.id);
  return (
    <div class="grid">
      <CreateCard
        onCreated={(made) => {
          setSecret({ url: made.webhook.url, secret: made.secret, why: 'created' });
          changed();
        }}
      />
      {secret ? <SecretOnce secret={secret} onDismiss={() => setSecret(undefined)} /> : null}
      {webhooks ? (
        <EndpointsCard
          webhooks={webhooks}
          error={loaded.error}
          selected={shown?.id}
          onSelect={setSelected}
          onSecret={setSecret}
          onChange={changed}
        />
      ) : (
        <Card title="Endpoints" id="endpoints">
          <ErrorNotice error={loaded.error} />
          {loaded.loading ? <Loading /> : null}
        </Card>
      )}
      {shown ? <DeliveriesCard webhook={shown} round={round} /> : null}
    </div>
  );
}
