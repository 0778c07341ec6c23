import { useEffect, useState } from 'preact/hooks';
import { apiRaw, ApiError } from '../lib/api.js';
import { field } from '../lib/form.js';
import type { AcceptedInvitation, InvitationPreview } from '../lib/types.js';
import { AuthShell, Link } from '../components/layout.js';
import { ErrorNotice, Loading, Notice, when, words } from '../components/ui.js';

type State =
  | { kind: 'loading' }
  | { kind: 'ready'; invitation: InvitationPreview; confirmLink: boolean }
  | { kind: 'joined'; user: AcceptedInvitation['user']; tenantName: string }
  | { kind: 'invalid' }
  | { kind: 'failed'; message: string };

/**
 * The token is read from the fragment once per page load and dropped from the address bar (it
 * never reaches a server log, a Referer or the history); it stays in memory until it is spent.
 */
let token: string | undefined;
let inspecting: Promise<State> | undefined;

function inspectOnce(): Promise<State> {
  inspecting ??= (async (): Promise<State> => {
    token = new URLSearchParams(location.hash.slice(1)).get('token') ?? undefined;
    history.replaceState(null, '', location.pathname);
    if (!token) return { kind: 'invalid' };
    try {
      const body = (await apiRaw('POST', '/auth/v2/invitations/inspect', { token })) as {
        data: { invitation: InvitationPreview };
      };
      const invitation = body.data.invitation;
      return { kind: 'ready', invitation, confirmLink: invitation.existingAccount };
    } catch (error) {
      return failure(error);
    }
  })();
  return inspecting;
}

function failure(error: unknown): State {
  if (error instanceof ApiError && error.code === 'INVALID_OR_EXPIRED') return { kind: 'invalid' };
  return {
    kind: 'failed',
    message: error instanceof ApiError ? error.message : 'The API could not be reached.',
  };
}

/** A seat refusal as the invited person can act on it: the company has to free or buy a seat. */
function acceptError(error: unknown, tenantName: string): unknown {
  if (error instanceof ApiError && error.code === 'LIMIT_EXCEEDED')
    return new ApiError(
      error.status,
      'SEATS_FULL',
      `${tenantName} has no free user seat right now. Ask whoever invited you to free a seat or upgrade the plan, then open the link again (LIMIT_EXCEEDED).`,
    );
  return error;
}

function AcceptForm(props: {
  invitation: InvitationPreview;
  confirmLink: boolean;
  onDone: (state: State) => void;
}) {
  const { invitation, confirmLink } = props;
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    if (busy) return;
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const body = confirmLink
      ? { token, confirmLink: true }
      : {
          token,
          firstName: field(form, 'firstName').trim(),
          lastName: field(form, 'lastName').trim(),
          ...(field(form, 'password') ? { password: field(form, 'password') } : {}),
        };
    setBusy(true);
    setError(undefined);
    try {
      const answer = (await apiRaw('POST', '/auth/v2/invitations/accept', body)) as {
        data: AcceptedInvitation;
      };
      props.onDone({ kind: 'joined', user: answer.data.user, tenantName: invitation.tenantName });
    } catch (caught) {
      if (caught instanceof ApiError && caught.code === 'LINK_CONFIRMATION_REQUIRED')
        props.onDone({ kind: 'ready', invitation, confirmLink: true });
      else if (caught instanceof ApiError && caught.code === 'INVALID_OR_EXPIRED')
        props.onDone({ kind: 'invalid' });
      else setError(acceptError(caught, invitation.tenantName));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form onSubmit={(e) => void submit(e)} aria-label="Accept the invitation">
      {confirmLink ? (
        <>
          <Notice kind="info">
            An account for {invitation.email} already exists. Joining moves it to {invitation.tenantName}: you
            keep your sign-in, and if it belongs to another company now, you leave that company and are signed
            out there.
          </Notice>
          <label class="check">
            <input type="checkbox" name="confirm" required /> Link my account {invitation.email} to{' '}
            {invitation.tenantName}
          </label>
        </>
      ) : (
        <>
          <div class="two">
            <div>
              <label for="firstName">First name</label>
              <input id="firstName" name="firstName" required maxLength={100} autocomplete="given-name" />
            </div>
            <div>
              <label for="lastName">Last name</label>
              <input id="lastName" name="lastName" required maxLength={100} autocomplete="family-name" />
            </div>
          </div>
          <label for="new-password">Choose a password (optional)</label>
          <input
            id="new-password"
            name="password"
            type="password"
            minLength={12}
            maxLength={128}
            autocomplete="new-password"
            aria-describedby="password-hint"
          />
          <p id="password-hint" class="small muted">
            12 to 128 characters; a few unrelated words make a strong one. Optional: without one you sign in
            with a link sent by e-mail.
          </p>
        </>
      )}
      <ErrorNotice error={error} />
      <button type="submit" aria-busy={busy}>
        {confirmLink
          ? `Join ${invitation.tenantName}`
          : `Create my account and join ${invitation.tenantName}`}
      </button>
    </form>
  );
}

/** `/console/accept-invitation#token=…`: what the invitation is for, then joining by POST. */
export function AcceptInvitationPage() {
  const [state, setState] = useState<State>({ kind: 'loading' });
  useEffect(() => {
    document.title = 'Invitation · TAP console';
    void inspectOnce().then(setState);
    // Another invitation link opened on this page changes only the fragment (no reload): read it.
    const again = () => {
      if (!new URLSearchParams(location.hash.slice(1)).has('token')) return;
      inspecting = undefined;
      setState({ kind: 'loading' });
      void inspectOnce().then(setState);
    };
    addEventListener('hashchange', again);
    return () => removeEventListener('hashchange', again);
  }, []);
  switch (state.kind) {
    case 'loading':
      return (
        <AuthShell title="Your invitation">
          <Loading />
        </AuthShell>
      );
    case 'ready': {
      const i = state.invitation;
      return (
        <AuthShell title={`Join ${i.tenantName}`}>
          <p data-outcome="invitation-ready">
            You are invited to join <strong>{i.tenantName}</strong> as <strong>{words(i.role)}</strong> with
            the address <strong>{i.email}</strong>.
          </p>
          <p class="small muted">The invitation is valid until {when(i.expiresAt)}.</p>
          <AcceptForm invitation={i} confirmLink={state.confirmLink} onDone={setState} />
        </AuthShell>
      );
    }
    case 'joined':
      return (
        <AuthShell title={`Welcome to ${state.tenantName}`}>
          <Notice kind="success">
            <span data-outcome="invitation-accepted">
              You joined {state.tenantName}. Signed in as {state.user.email}.
            </span>
          </Notice>
          <p>
            <Link page="journey" class="button">
              Open the console
            </Link>
          </p>
        </AuthShell>
      );
    case 'invalid':
      return (
        <AuthShell title="This invitation cannot be used">
          <Notice kind="error">
            <span data-outcome="invalid-or-expired">
              The invitation link is invalid, has expired, was revoked or was already used
              (INVALID_OR_EXPIRED). Ask for a new invitation, or open the link from your mail again.
            </span>
          </Notice>
          <p>
            <Link page="sign-in">Sign in</Link>
          </p>
        </AuthShell>
      );
    default:
      return (
        <AuthShell title="Something went wrong">
          <Notice kind="error">{state.message}</Notice>
        </AuthShell>
      );
  }
}
