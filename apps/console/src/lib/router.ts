import { useEffect, useState } from 'preact/hooks';

/** The console's own pages live under /console/; the gateway's SSO and magic-link redirects land on /auth/…. */
export const CONSOLE_BASE = '/console';

export type PageName =
  | 'sign-in'
  | 'sign-up'
  | 'journey'
  | 'plan'
  | 'usage'
  | 'api-access'
  | 'team'
  | 'account'
  | 'webhooks'
  | 'audit-log'
  | 'accept-invitation'
  | 'magic-link'
  | 'sso-confirm-email'
  | 'sso-pending-approval'
  | 'sso-error'
  | 'not-found';

const AUTH_PAGES: Record<string, PageName> = {
  '/auth/magic-link': 'magic-link',
  '/auth/sso/confirm-email': 'sso-confirm-email',
  '/auth/sso/pending-approval': 'sso-pending-approval',
  '/auth/sso/error': 'sso-error',
};
const CONSOLE_PAGES: readonly PageName[] = [
  'sign-in',
  'sign-up',
  'journey',
  'plan',
  'usage',
  'api-access',
  'team',
  'account',
  'webhooks',
  'audit-log',
  'accept-invitation',
];

/** The page a path shows: `/console/<page>`, the bare `/console/` (journey), or one of the auth landings. */
export function pageOf(pathname: string): PageName {
  const auth = AUTH_PAGES[pathname.replace(/^\/console(?=\/auth\/)/, '')];
  if (auth) return auth;
  if (pathname === CONSOLE_BASE || pathname === `${CONSOLE_BASE}/`) return 'journey';
  const name = pathname.startsWith(`${CONSOLE_BASE}/`) ? pathname.slice(CONSOLE_BASE.length + 1) : '';
  return (CONSOLE_PAGES as readonly string[]).includes(name) ? (name as PageName) : 'not-found';
}

export const hrefOf = (page: PageName): string => `${CONSOLE_BASE}/${page}`;

const listeners = new Set<() => void>();

export function navigate(page: PageName, options: { replace?: boolean } = {}): void {
  const url = hrefOf(page);
  if (options.replace) history.replaceState(null, '', url);
  else history.pushState(null, '', url);
  for (const listener of listeners) listener();
}

/** The current page, following pushState and the back button. */
export function usePage(): PageName {
  const [page, setPage] = useState(() => pageOf(location.pathname));
  useEffect(() => {
    const update = () => setPage(pageOf(location.pathname));
    listeners.add(update);
    addEventListener('popstate', update);
    // A child may have navigated in its own effect, which runs before this one.
    update();
    return () => {
      listeners.delete(update);
      removeEventListener('popstate', update);
    };
  }, []);
  return page;
}
