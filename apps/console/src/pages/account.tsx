import { useRef } from 'preact/hooks';
import { api } from '../lib/api.js';
import type { Session } from '../lib/types.js';
import { useAction } from '../lib/use-action.js';
import { useLoad } from '../lib/use-load.js';
import { Badge, Card, ErrorNotice, Loading, Notice, when } from '../components/ui.js';

/** A user agent in a few words ("Chrome on Linux"), the full string kept for the curious. */
export function deviceOf(userAgent: string): string {
  if (!userAgent) return 'Unknown device';
  const browser = /Edg\//.test(userAgent)
    ? 'Edge'
    : /Firefox\//.test(userAgent)
      ? 'Firefox'
      : /(Chrome|Chromium)\//.test(userAgent)
        ? 'Chrome'
        : /Safari\//.test(userAgent)
          ? 'Safari'
          : /curl\//.test(userAgent)
            ? 'curl'
            : undefined;
  const system = /Android/.test(userAgent)
    ? 'Android'
    : /iPhone|iPad/.test(userAgent)
      ? 'iOS'
      : /Windows/.test(userAgent)
        ? 'Windows'
        : /Mac OS X|Macintosh/.test(userAgent)
          ? 'macOS'
          : /Linux/.test(userAgent)
            ? 'Linux'
            : undefined;
  if (browser && system) return `${browser} on ${system}`;
  return browser ?? system ?? userAgent.slice(0, 60);
}

/** The Account area: your own sessions on every device, ending one or all the others. */
export function AccountPage() {
  const loaded = useLoad(() => api<{ sessions: Session[] }>('GET', '/auth/sessions'));
  const action = useAction(loaded.reload);
  const heading = useRef<HTMLHeadingElement>(null);
  const sessions = loaded.data?.sessions;
  const others = sessions?.filter((s) => !s.current).length ?? 0;
  const end = (session: Session) => {
    if (!confirm(`End the session on ${deviceOf(session.userAgent)}? That device is signed out.`)) return;
    void action.run(`end-${session.id}`, async () => {
      await api('DELETE', `/auth/sessions/${encodeURIComponent(session.id)}`);
      heading.current?.focus();
      return `The session on ${deviceOf(session.userAgent)} has ended.`;
    });
  };
  const endOthers = () => {
    if (!confirm('Sign out everywhere except on this device?')) return;
    void action.run('others', async () => {
      const { revoked } = await api<{ revoked: number }>('POST', '/auth/sessions/revoke-others');
      return `Ended ${revoked} other ${revoked === 1 ? 'session' : 'sessions'}. Only this device is signed in.`;
    });
  };
  return (
    <Card title="Your sessions" id="sessions" headingRef={heading}>
      <p class="muted small">
        Every device and browser where you are signed in. End a session you do not recognise.
      </p>
      {action.done ? <Notice kind="success">{action.done}</Notice> : null}
      <ErrorNotice error={action.error ?? loaded.error} />
      {loaded.loading && !sessions ? <Loading /> : null}
      {sessions ? (
        <div class="table-wrap" role="region" aria-label="Sessions table" tabIndex={0}>
          <table>
            <thead>
              <tr>
                <th scope="col">Device</th>
                <th scope="col">Address</th>
                <th scope="col">Signed in</th>
                <th scope="col">Last used</th>
                <th scope="col">
                  <span class="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {sessions.map((s) => (
                <tr key={s.id} data-session={s.id} data-current={s.current ? 'true' : 'false'}>
                  <th scope="row">
                    <span title={s.userAgent}>{deviceOf(s.userAgent)}</span>{' '}
                    {s.current ? <Badge tone="good">This device</Badge> : null}
                  </th>
                  <td>
                    <code>{s.address || 'unknown'}</code>
                  </td>
                  <td>{when(s.createdAt)}</td>
                  <td>{s.lastUsedAt ? when(s.lastUsedAt) : 'Not since sign-in'}</td>
                  <td class="actions">
                    {s.current ? (
                      <span class="muted small">Sign out to end</span>
                    ) : (
                      <button
                        type="button"
                        class="danger"
                        onClick={() => end(s)}
                        aria-busy={action.busy === `end-${s.id}`}
                      >
                        End session
                        <span class="sr-only">
                          {' '}
                          on {deviceOf(s.userAgent)} from {s.address}
                        </span>
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {sessions ? (
        <button type="button" class="danger" onClick={endOthers} aria-busy={action.busy === 'others'}>
          End all other sessions
        </button>
      ) : null}
      {sessions && others === 0 ? <p class="small muted">You are signed in on this device only.</p> : null}
    </Card>
  );
}
