import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { apiRaw } from '../lib/api.js';
import { hrefOf, navigate, type PageName } from '../lib/router.js';
import type { Tenant } from '../lib/types.js';

const NAV: { page: PageName; label: string }[] = [
  { page: 'journey', label: 'Journey' },
  { page: 'plan', label: 'Success plan' },
  { page: 'usage', label: 'Usage' },
  { page: 'api-access', label: 'API access' },
  { page: 'team', label: 'Team' },
  { page: 'webhooks', label: 'Webhooks' },
  { page: 'audit-log', label: 'Audit log' },
  { page: 'account', label: 'Account' },
];

/** In-app links navigate without a reload; modified clicks keep the browser's behaviour. */
export function Link(props: {
  page: PageName;
  children: ComponentChildren;
  current?: boolean;
  class?: string;
}) {
  return (
    <a
      href={hrefOf(props.page)}
      class={props.class}
      aria-current={props.current ? 'page' : undefined}
      onClick={(event) => {
        if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
        event.preventDefault();
        navigate(props.page);
      }}
    >
      {props.children}
    </a>
  );
}

/** The signed-in frame: brand, company, navigation, sign-out; one <main> per page. */
export function Layout(props: {
  page: PageName;
  tenant: Tenant;
  title: string;
  children: ComponentChildren;
}) {
  const [leaving, setLeaving] = useState(false);
  const signOut = async () => {
    setLeaving(true);
    // Logout is idempotent and clears the cookies; whatever it answers, the page leaves.
    await apiRaw('POST', '/auth/v2/logout', undefined).catch(() => undefined);
    navigate('sign-in', { replace: true });
  };
  return (
    <div class="shell">
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="topbar">
        <span class="brand">TAP console</span>
        <span class="tenant" data-testid="tenant-name">
          {props.tenant.name} · {props.tenant.subscriptionTier}
        </span>
        <button type="button" class="secondary" onClick={() => void signOut()} disabled={leaving}>
          Sign out
        </button>
      </header>
      <nav class="nav" aria-label="Console">
        {NAV.map((item) => (
          <Link key={item.page} page={item.page} current={item.page === props.page}>
            {item.label}
          </Link>
        ))}
      </nav>
      <main id="main" tabIndex={-1}>
        <h1>{props.title}</h1>
        {props.children}
      </main>
    </div>
  );
}

/** The signed-out frame: sign-in, sign-up and the magic-link and SSO landings. */
export function AuthShell(props: { title: string; children: ComponentChildren }) {
  return (
    <div class="auth-shell">
      <main id="main" class="auth-card">
        <p class="brand">TAP console</p>
        <h1>{props.title}</h1>
        {props.children}
      </main>
    </div>
  );
}
