import { useEffect, useState } from 'preact/hooks';
import { api } from '../lib/api.js';
import { ROLES, type Member, type Role } from '../lib/types.js';
import { useAction, type Action } from '../lib/use-action.js';
import { useLoad } from '../lib/use-load.js';
import { Badge, Card, ErrorNotice, Loading, Notice, when, words } from '../components/ui.js';

const memberPath = (m: Member, tail = '') => `/tenant/members/${encodeURIComponent(m.id)}${tail}`;
const nameOf = (m: Member) => `${m.firstName} ${m.lastName}`.trim() || m.email;

/**
 * A role is chosen, then saved with its own button: a select that saved on change would save
 * every role it passes through while someone walks the options with the arrow keys.
 */
function RoleForm(props: { member: Member; action: Action }) {
  const m = props.member;
  const [role, setRole] = useState<Role>(m.role);
  useEffect(() => setRole(m.role), [m.role]);
  const id = `role-${m.id}`;
  const save = (event: Event) => {
    event.preventDefault();
    if (role === m.role) return;
    void props.action
      .run(`role-${m.id}`, async () => {
        await api('PATCH', memberPath(m), { role });
        return `${m.email} is now ${words(role)}.`;
      })
      // Refused (LAST_OWNER, FORBIDDEN_ROLE): the select shows the role the member still has.
      .then((made) => made || setRole(m.role));
  };
  return (
    <form class="row-form" onSubmit={save}>
      <label for={id} class="sr-only">
        Role of {m.email}
      </label>
      <select id={id} value={role} onChange={(e) => setRole(e.currentTarget.value as Role)}>
        {ROLES.map((r) => (
          <option key={r} value={r}>
            {words(r)}
          </option>
        ))}
      </select>
      <button type="submit" class="secondary" aria-busy={props.action.busy === `role-${m.id}`}>
        Save<span class="sr-only"> role of {m.email}</span>
      </button>
    </form>
  );
}

function MemberRow(props: { member: Member; action: Action }) {
  const m = props.member;
  const { action } = props;
  const active = m.status === 'ACTIVE';
  // One button that changes its words (not two that swap), so keyboard focus stays on it.
  const toggle = () => {
    const question = active
      ? `Deactivate ${m.email}? They are signed out everywhere at once and their seat is freed.`
      : `Reactivate ${m.email}? This takes one of your plan's seats.`;
    if (!confirm(question)) return;
    void action.run(`status-${m.id}`, async () => {
      await api('POST', memberPath(m, active ? '/deactivate' : '/reactivate'));
      return active ? `${m.email} is deactivated and their seat is free.` : `${m.email} is active again.`;
    });
  };
  const endSessions = () => {
    if (!confirm(`Sign ${m.email} out on every device?`)) return;
    void action.run(`sessions-${m.id}`, async () => {
      const { revoked } = await api<{ revoked: number }>('DELETE', memberPath(m, '/sessions'));
      return `Ended ${revoked} ${revoked === 1 ? 'session' : 'sessions'} of ${m.email}.`;
    });
  };
  return (
    <tr data-member={m.email} data-status={m.status} data-role={m.role}>
      <th scope="row">{nameOf(m)}</th>
      <td>{m.email}</td>
      <td>
        <RoleForm member={m} action={action} />
      </td>
      <td>
        <Badge tone={active ? 'good' : 'bad'}>{active ? 'Active' : 'Deactivated'}</Badge>
      </td>
      <td>{m.lastSignInAt ? when(m.lastSignInAt) : 'Never'}</td>
      <td class="actions">
        <button
          type="button"
          class={active ? 'danger' : 'secondary'}
          onClick={toggle}
          aria-busy={action.busy === `status-${m.id}`}
        >
          {active ? 'Deactivate' : 'Reactivate'}
          <span class="sr-only"> {m.email}</span>
        </button>{' '}
        <button
          type="button"
          class="secondary"
          onClick={endSessions}
          aria-busy={action.busy === `sessions-${m.id}`}
        >
          End sessions<span class="sr-only"> of {m.email}</span>
        </button>
      </td>
    </tr>
  );
}

/** Everyone in the company with role, status and last sign-in, and what a manager may change. */
export function MembersCard(props: { round: number; onChange: () => void }) {
  const loaded = useLoad(() => api<{ members: Member[] }>('GET', '/tenant/members'), [props.round]);
  const action = useAction(props.onChange);
  const members = loaded.data?.members;
  return (
    <Card title="Members" id="members">
      {action.done ? <Notice kind="success">{action.done}</Notice> : null}
      <ErrorNotice error={action.error ?? loaded.error} />
      {loaded.loading && !members ? <Loading /> : null}
      {members ? (
        <div class="table-wrap" role="region" aria-label="Members table" tabIndex={0}>
          <table>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">E-mail</th>
                <th scope="col">Role</th>
                <th scope="col">Status</th>
                <th scope="col">Last sign-in</th>
                <th scope="col">
                  <span class="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {members.map((m) => (
                <MemberRow key={m.id} member={m} action={action} />
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </Card>
  );
}
