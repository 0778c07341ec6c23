import { useEffect, useState } from 'preact/hooks';
import { apiRaw, ApiError } from '../lib/api.js';
import type { SessionUser } from '../lib/types.js';
import { AuthShell, Link } from '../components/layout.js';
import { Loading, Notice } from '../components/ui.js';

type Outcome =
  | { kind: 'signed-in'; user: SessionUser; provisioned: boolean }
  | { kind: 'pending'; message: string }
  | { kind: 'invalid' }
  | { kind: 'failed'; message: string };

interface RedeemBody {
  message?: string;
  status?: string;
  data?: { user: SessionUser; tenantProvisioned?: boolean };
}

/** The token is only ever in the fragment; it is dropped from the address bar before it is spent. */
function takeToken(): string | undefined {
  const params = new URLSearchParams(location.hash.slice(1));
  const token = params.get('token') ?? undefined;
  history.replaceState(null, '', location.pathname);
  return token;
}

let redeeming: Promise<Outcome> | undefined;

/** Once per page load: a second render must not spend a single-use token twice. */
function redeemOnce(): Promise<Outcome> {
  redeeming ??= (async (): Promise<Outcome> => {
    const token = takeToken();
    if (!token) return { kind: 'invalid' };
    try {
      const body = (await apiRaw('POST', '/auth/v2/magic-link/redeem', { token })) as RedeemBody;
      if (body.status === 'pending_approval') return { kind: 'pending', message: body.message ?? '' };
      if (body.data?.user)
        return { kind: 'signed-in', user: body.data.user, provisioned: body.data.tenantProvisioned === true };
      return { kind: 'failed', message: 'Unexpected answer from the server.' };
    } catch (error) {
      if (error instanceof ApiError && error.code === 'INVALID_OR_EXPIRED') return { kind: 'invalid' };
      return {
        kind: 'failed',
        message: error instanceof ApiError ? error.message : 'The API could not be reached.',
      };
    }
  })();
  return redeeming;
}

/** `/auth/magic-link#token=…`: redeems by POST and shows which of the outcomes it was. */
export function MagicLinkPage() {
  const [outcome, setOutcome] = useState<Outcome | undefined>();
  useEffect(() => {
    document.title = 'Sign-in link · TAP console';
    void redeemOnce().then(setOutcome);
  }, []);
  if (!outcome)
    return (
      <AuthShell title="Signing you in">
        <Loading />
      </AuthShell>
    );
  switch (outcome.kind) {
    case 'signed-in': {
      const { provisioned } = outcome;
      return (
        <AuthShell title={provisioned ? 'Your company is ready' : 'You are signed in'}>
          <Notice kind="success">
            <span data-outcome={provisioned ? 'tenant-provisioned' : 'signed-in'}>
              {provisioned
                ? `${outcome.user.tenant.name} was created and you are its owner.`
                : `Welcome back, ${outcome.user.firstName || outcome.user.email}.`}
            </span>{' '}
            Signed in as {outcome.user.email} ({outcome.user.tenant.name}).
          </Notice>
          <p>
            <Link page="journey" class="button">
              Open your journey
            </Link>
          </p>
        </AuthShell>
      );
    }
    case 'pending':
      return (
        <AuthShell title="Waiting for approval">
          <Notice kind="info">
            <span data-outcome="pending-approval">{outcome.message}</span> You can sign in once an owner or
            admin approves your request.
          </Notice>
        </AuthShell>
      );
    case 'invalid':
      return (
        <AuthShell title="This link cannot be used">
          <Notice kind="error">
            <span data-outcome="invalid-or-expired">
              The link is invalid, has expired or was already used (INVALID_OR_EXPIRED).
            </span>
          </Notice>
          <p>
            <Link page="sign-in">Ask for a new link</Link>
          </p>
        </AuthShell>
      );
    default:
      return (
        <AuthShell title="Something went wrong">
          <Notice kind="error">{outcome.message}</Notice>
        </AuthShell>
      );
  }
}
