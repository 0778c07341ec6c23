import { field, fields } from '../lib/form.js';
import { useState } from 'preact/hooks';
import { api } from '../lib/api.js';
import type { OAuthClient } from '../lib/types.js';
import { useLoad } from '../lib/use-load.js';
import { Card, ErrorNotice, Loading, Notice, when } from '../components/ui.js';

/** The interface's data scopes; a client should ask for the fewest it needs. */
const SCOPES = [
  'products:read',
  'products:write',
  'connections:read',
  'connections:write',
  'imports:write',
  'traceability:read',
  'dpp:read',
] as const;

interface Secret {
  clientId: string;
  clientSecret: string;
  why: 'created' | 'rotated';
}

/** Shown once: the API keeps only a hash, so this panel is the only place the secret appears. */
function SecretOnce(props: { secret: Secret; onDismiss: () => void }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    await navigator.clipboard.writeText(props.secret.clientSecret);
    setCopied(true);
  };
  return (
    <div class="secret" role="region" aria-label="New client secret">
      <Notice kind="warning">
        Client {props.secret.why}. Copy the secret now: it is shown only once and cannot be read again.
      </Notice>
      <dl>
        <dt>Client id</dt>
        <dd>
          <code data-testid="client-id">{props.secret.clientId}</code>
        </dd>
        <dt>Client secret</dt>
        <dd>
          <code data-testid="client-secret">{props.secret.clientSecret}</code>
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

export function ApiAccessPage() {
  const loaded = useLoad(() => api<{ clients: OAuthClient[] }>('GET', '/oauth/clients'));
  const [secret, setSecret] = useState<Secret | undefined>();
  const [error, setError] = useState<unknown>();
  const create = async (event: Event) => {
    event.preventDefault();
    const formElement = event.currentTarget as HTMLFormElement;
    const form = new FormData(formElement);
    setError(undefined);
    try {
      const made = await api<OAuthClient & { clientSecret: string }>('POST', '/oauth/clients', {
        name: field(form, 'name'),
        scopes: fields(form, 'scopes'),
      });
      setSecret({ clientId: made.clientId, clientSecret: made.clientSecret, why: 'created' });
      formElement.reset();
      loaded.reload();
    } catch (caught) {
      setError(caught);
    }
  };
  const rotate = async (clientId: string) => {
    setError(undefined);
    try {
      const rotated = await api<{ clientId: string; clientSecret: string }>(
        'POST',
        `/oauth/clients/${encodeURIComponent(clientId)}/rotate`,
      );
      setSecret({ ...rotated, why: 'rotated' });
      loaded.reload();
    } catch (caught) {
      setError(caught);
    }
  };
  const remove = async (client: OAuthClient) => {
    if (!confirm(`Delete ${client.name}? Its tokens stop working at once.`)) return;
    setError(undefined);
    try {
      await api('DELETE', `/oauth/clients/${encodeURIComponent(client.clientId)}`);
      if (secret?.clientId === client.clientId) setSecret(undefined);
      loaded.reload();
    } catch (caught) {
      setError(caught);
    }
  };
  return (
    <div class="grid">
      <Card title="Create an OAuth client" id="create-client">
        <p class="muted small">
          For server-to-server integrations (client credentials). Choose only the scopes it needs.
        </p>
        <form onSubmit={(e) => void create(e)}>
          <label for="client-name">Name</label>
          <input id="client-name" name="name" required maxLength={100} />
          <fieldset>
            <legend>Scopes</legend>
            <div class="checks">
              {SCOPES.map((scope) => (
                <label key={scope} class="check">
                  <input type="checkbox" name="scopes" value={scope} /> <code>{scope}</code>
                </label>
              ))}
            </div>
          </fieldset>
          <button type="submit">Create client</button>
        </form>
      </Card>
      {secret ? <SecretOnce secret={secret} onDismiss={() => setSecret(undefined)} /> : null}
      <ErrorNotice error={error} />
      <Card title="Your clients" id="clients">
        <ErrorNotice error={loaded.error} />
        {loaded.loading && !loaded.data ? <Loading /> : null}
        {loaded.data && loaded.data.clients.length === 0 ? <p>No clients yet.</p> : null}
        {loaded.data && loaded.data.clients.length > 0 ? (
          <div class="table-wrap">
            <table>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Client id</th>
                  <th scope="col">Scopes</th>
                  <th scope="col">Secret set</th>
                  <th scope="col">
                    <span class="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {loaded.data.clients.map((c) => (
                  <tr key={c.clientId} data-client={c.clientId}>
                    <td>{c.name}</td>
                    <td>
                      <code>{c.clientId}</code>
                    </td>
                    <td>{c.scopes.join(' ')}</td>
                    <td>{when(c.secretRotatedAt)}</td>
                    <td class="actions">
                      <button type="button" class="secondary" onClick={() => void rotate(c.clientId)}>
                        Rotate secret
                      </button>{' '}
                      <button type="button" class="danger" onClick={() => void remove(c)}>
                        Delete
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : null}
      </Card>
    </div>
  );
}
