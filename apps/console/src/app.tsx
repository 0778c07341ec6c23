import { useEffect, useState } from 'preact/hooks';
import { api, ApiError, csrfToken } from './lib/api.js';
import { navigate, usePage, type PageName } from './lib/router.js';
import type { Tenant } from './lib/types.js';
import { AuthShell, Layout, Link } from './components/layout.js';
import { Loading, Notice } from './components/ui.js';
import { SignInPage } from './pages/sign-in.js';
import { SignUpPage } from './pages/sign-up.js';
import { MagicLinkPage } from './pages/magic-link.js';
import { SsoResultPage } from './pages/sso-result.js';
import { JourneyPage } from './pages/journey.js';
import { PlanPage } from './pages/plan.js';
import { UsagePage } from './pages/usage.js';
import { ApiAccessPage } from './pages/api-access.js';
import { TeamPage } from './pages/team.js';
import { AccountPage } from './pages/account.js';
import { AcceptInvitationPage } from './pages/accept-invitation.js';
import { LazyPage } from './components/lazy-page.js';

/* The manager-only pages of issue #24 are split off: most visits never open them. */
const webhooksPage = () => import('./pages/webhooks.js').then((m) => m.WebhooksPage);
const auditLogPage = () => import('./pages/audit-log.js').then((m) => m.AuditLogPage);

const TITLES: Partial<Record<PageName, string>> = {
  journey: 'Your adoption journey',
  plan: 'Success plan',
  usage: 'Usage and limits',
  'api-access': 'API access',
  team: 'Team',
  account: 'Your account',
  webhooks: 'Webhooks',
  'audit-log': 'Audit log',
};

/** Pages that need a session: the company is loaded once (GET /tenant) and shown in the frame. */
function SignedIn(props: { page: PageName }) {
  const [tenant, setTenant] = useState<Tenant | undefined>();
  const [failure, setFailure] = useState<string | undefined>();
  useEffect(() => {
    // Every session carries the readable CSRF cookie: without it there is nothing to resume.
    if (!csrfToken()) {
      navigate('sign-in', { replace: true });
      return;
    }
    api<Tenant>('GET', '/tenant').then(setTenant, (error: unknown) => {
      if (error instanceof ApiError && error.status === 401) navigate('sign-in', { replace: true });
      else setFailure('The console could not reach the API. Please reload in a moment.');
    });
  }, []);
  useEffect(() => {
    document.title = `${TITLES[props.page] ?? 'TAP'} · TAP console`;
  }, [props.page]);
  if (failure)
    return (
      <AuthShell title="Unavailable">
        <Notice kind="error">{failure}</Notice>
      </AuthShell>
    );
  if (!tenant) return <Loading />;
  const title = TITLES[props.page] ?? '';
  const body =
    props.page === 'plan' ? (
      <PlanPage />
    ) : props.page === 'usage' ? (
      <UsagePage />
    ) : props.page === 'api-access' ? (
      <ApiAccessPage />
    ) : props.page === 'team' ? (
      <TeamPage />
    ) : props.page === 'account' ? (
      <AccountPage />
    ) : props.page === 'webhooks' ? (
      <LazyPage load={webhooksPage} />
    ) : props.page === 'audit-log' ? (
      <LazyPage load={auditLogPage} />
    ) : (
      <JourneyPage />
    );
  return (
    <Layout page={props.page} tenant={tenant} title={title}>
      {body}
    </Layout>
  );
}

export function App() {
  const page = usePage();
  switch (page) {
    case 'sign-in':
      return <SignInPage />;
    case 'sign-up':
      return <SignUpPage />;
    case 'magic-link':
      return <MagicLinkPage />;
    case 'accept-invitation':
      return <AcceptInvitationPage />;
    case 'sso-confirm-email':
    case 'sso-pending-approval':
    case 'sso-error':
      return <SsoResultPage page={page} />;
    case 'not-found':
      return (
        <AuthShell title="Page not found">
          <p>
            <Link page="journey">Go to your journey</Link>
          </p>
        </AuthShell>
      );
    default:
      return <SignedIn page={page} />;
  }
}
