import { useCallback, useState } from 'preact/hooks';
import { api } from '../lib/api.js';
import type { UsageReport } from '../lib/types.js';
import { useLoad } from '../lib/use-load.js';
import { Bar, Card, ErrorNotice, Notice } from '../components/ui.js';
import { MembersCard } from './team-members.js';
import { InvitationsCard } from './team-invitations.js';
import { JoinRequestsCard } from './team-join-requests.js';

/** The seats of the plan: active users against MAX_USERS (the OWNER counts). */
function SeatsCard(props: { round: number }) {
  const loaded = useLoad(() => api<UsageReport>('GET', '/entitlements/usage'), [props.round]);
  const seats = loaded.data?.limits['MAX_USERS'];
  const max = seats && !seats.unlimited ? seats.limit : null;
  const full = seats !== undefined && max !== null && seats.current >= max;
  return (
    <Card title="Seats" id="seats">
      <ErrorNotice error={loaded.error} />
      {seats ? (
        <>
          <p data-testid="seats">
            <strong>
              {max === null ? `${seats.current} users (unlimited)` : `${seats.current} of ${max} users`}
            </strong>{' '}
            on {loaded.data?.tier.name}
          </p>
          <Bar label="Users" current={seats.current} max={max} />
          {full ? (
            <Notice kind="warning">
              Every seat is taken: an invitation can be sent, but accepting it, approving a request or
              reactivating someone needs a free seat. Deactivate a member or upgrade your plan.
            </Notice>
          ) : null}
        </>
      ) : null}
    </Card>
  );
}

/**
 * The Team page (OWNER and ADMIN): seats, members, invitations and join requests. A change on one
 * card can move the others (an approval takes a seat and adds a member), so every change reloads
 * all four from the API rather than patching what is on screen.
 */
export function TeamPage() {
  const [round, setRound] = useState(0);
  const changed = useCallback(() => setRound((r) => r + 1), []);
  return (
    <div class="grid">
      <MembersCard round={round} onChange={changed} />
      <SeatsCard round={round} />
      <InvitationsCard round={round} onChange={changed} />
      <JoinRequestsCard round={round} onChange={changed} />
    </div>
  );
}
