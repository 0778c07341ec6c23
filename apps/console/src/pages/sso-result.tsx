import { useEffect } from 'preact/hooks';
import type { PageName } from '../lib/router.js';
import { AuthShell, Link } from '../components/layout.js';
import { Notice } from '../components/ui.js';

/** Why a single sign-on failed, in words (docs/browser-sessions.md lists the reasons). */
const REASONS: Record<string, string> = {
  unknown_provider: 'That sign-on provider is not configured.',
  origin_not_allowed: 'The sign-in was started from a page we do not recognise.',
  invalid_return_to: 'The page to return to was not valid.',
  rate_limited: 'Too many sign-in attempts. Please wait a minute.',
  provider_unavailable: 'The sign-on provider did not answer. Please try again.',
  unavailable: 'Sign-on is unavailable right now. Please try again.',
  invalid_state: 'The sign-in expired or was already used. Please start again.',
  email_unverified: 'Your provider has not verified your e-mail address.',
};

/** The gateway's SSO landings: confirm by e-mail, waiting for approval, or a failure with its reason. */
export function SsoResultPage(props: { page: PageName }) {
  useEffect(() => {
    document.title = 'Single sign-on · TAP console';
  }, []);
  if (props.page === 'sso-confirm-email')
    return (
      <AuthShell title="Confirm it is you">
        <Notice kind="info">
          An account with your e-mail address already exists. We sent it a link: open it to connect your
          sign-on to that account.
        </Notice>
      </AuthShell>
    );
  if (props.page === 'sso-pending-approval')
    return (
      <AuthShell title="Waiting for approval">
        <Notice kind="info">
          <span data-outcome="pending-approval">
            Your request to join was sent to the company’s administrators.
          </span>
        </Notice>
      </AuthShell>
    );
  const reason = new URLSearchParams(location.search).get('reason') ?? '';
  return (
    <AuthShell title="Single sign-on failed">
      <Notice kind="error">
        {REASONS[reason] ?? `The sign-in could not be completed (${reason || 'unknown'}).`}
      </Notice>
      <p>
        <Link page="sign-in">Back to sign-in</Link>
      </p>
    </AuthShell>
  );
}
