import { useRef } from 'preact/hooks';
import { api } from '../lib/api.js';
import { field } from '../lib/form.js';
import { ROLES, type Invitation, type Role } from '../lib/types.js';
import { useAction } from '../lib/use-action.js';
import { useLoad } from '../lib/use-load.js';
import { Card, ErrorNotice, Loading, Notice, when, words } from '../components/ui.js';

/**
 * Invite by e-mail with a role, and the pending invitations with their revocation. The link goes
 * out by mail only: the token is never shown here, so whoever reads this page cannot use it.
 */
export function InvitationsCard(props: { round: number; onChange: () => void }) {
  const loaded = useLoad(
    () => api<{ invitations: Invitation[] }>('GET', '/tenant/invitations'),
    [props.round],
  );
  const action = useAction(props.onChange);
  const heading = useRef<HTMLHeadingElement>(null);
  const invite = (event: Event) => {
    event.preventDefault();
    const formElement = event.currentTarget as HTMLFormElement;
    const form = new FormData(formElement);
    const email = field(form, 'email').trim();
    const role = field(form, 'role') as Role;
    void action.run('invite', async () => {
      await api('POST', '/tenant/invitations', { email, role });
      formElement.reset();
      return `Invitation sent to ${email} as ${words(role)}. The link is valid for 7 days.`;
    });
  };
  const revoke = (invitation: Invitation) => {
    if (!confirm(`Revoke the invitation to ${invitation.email}? Its link stops working at once.`)) return;
    void action.run(`revoke-${invitation.id}`, async () => {
      await api('DELETE', `/tenant/invitations/${encodeURIComponent(invitation.id)}`);
      heading.current?.focus();
      return `The invitation to ${invitation.email} is revoked.`;
    });
  };
  const pending = loaded.data?.invitations.filter((i) => i.status === 'PENDING');
  return (
    <Card title="Invitations" id="invitations" headingRef={heading}>
      <form onSubmit={invite} aria-label="Invite someone">
        <label for="invite-email">E-mail address</label>
        <input id="invite-email" name="email" type="email" required maxLength={254} autocomplete="off" />
        <label for="invite-role">Role</label>
        <select id="invite-role" name="role">
          {ROLES.map((r) => (
            <option key={r} value={r} selected={r === 'MEMBER'}>
              {words(r)}
            </option>
          ))}
        </select>
        <button type="submit" aria-busy={action.busy === 'invite'}>
          Send invitation
        </button>
      </form>
      {action.done ? <Notice kind="success">{action.done}</Notice> : null}
      <ErrorNotice error={action.error ?? loaded.error} />
      <h3>Pending</h3>
      {loaded.loading && !pending ? <Loading /> : null}
      {pending && pending.length === 0 ? <p>No invitation is waiting for an answer.</p> : null}
      {pending && pending.length > 0 ? (
        <ul class="requests">
          {pending.map((i) => (
            <li key={i.id} data-invitation={i.email}>
              <span>
                <strong>{i.email}</strong> as {words(i.role)}{' '}
                <span class="muted small">
                  by {i.invitedBy.email}, expires {when(i.expiresAt)}
                </span>
              </span>
              <button
                type="button"
                class="danger"
                onClick={() => revoke(i)}
                aria-busy={action.busy === `revoke-${i.id}`}
              >
                Revoke<span class="sr-only"> the invitation to {i.email}</span>
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </Card>
  );
}
