import { field } from '../lib/form.js';
import { useEffect, useState } from 'preact/hooks';
import { apiRaw, ApiError } from '../lib/api.js';
import { hrefOf, navigate } from '../lib/router.js';
import { providerLabel, ssoProviders, ssoStartHref } from '../lib/sso-providers.js';
import { AuthShell, Link } from '../components/layout.js';
import { ErrorNotice, Notice } from '../components/ui.js';

function PasswordForm() {
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    setBusy(true);
    setError(undefined);
    try {
      await apiRaw('POST', '/auth/v2/login', {
        email: field(form, 'email'),
        password: field(form, 'password'),
      });
      navigate('journey', { replace: true });
    } catch (caught) {
      // A wrong password is 401 invalid_client (docs/api.md); say it plainly.
      setError(
        caught instanceof ApiError && caught.status === 401
          ? new ApiError(401, caught.code, 'That e-mail and password do not match an account.')
          : caught,
      );
      setBusy(false);
    }
  };
  return (
    <form onSubmit={(e) => void submit(e)} aria-labelledby="password-heading">
      <h2 id="password-heading">With your password</h2>
      <label for="email">E-mail</label>
      <input id="email" name="email" type="email" autocomplete="username" required maxLength={320} />
      <label for="password">Password</label>
      <input
        id="password"
        name="password"
        type="password"
        autocomplete="current-password"
        required
        maxLength={1024}
      />
      <ErrorNotice error={error} />
      <button type="submit" disabled={busy}>
        Sign in
      </button>
    </form>
  );
}

function MagicLinkForm() {
  const [sent, setSent] = useState<string | undefined>();
  const [error, setError] = useState<unknown>();
  const submit = async (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    setError(undefined);
    try {
      // Always the same answer, whether or not the address has an account (no enumeration).
      const body = (await apiRaw('POST', '/auth/v2/magic-link/request', {
        email: field(form, 'ml-email'),
      })) as {
        message?: string;
      };
      setSent(body.message ?? 'Check your inbox.');
    } catch (caught) {
      setError(caught);
    }
  };
  return (
    <form onSubmit={(e) => void submit(e)} aria-labelledby="magic-heading">
      <h2 id="magic-heading">With a sign-in link</h2>
      <label for="ml-email">E-mail for the link</label>
      <input id="ml-email" name="ml-email" type="email" autocomplete="email" required maxLength={320} />
      {sent ? <Notice kind="success">{sent}</Notice> : null}
      <ErrorNotice error={error} />
      <button type="submit" class="secondary">
        E-mail me a link
      </button>
    </form>
  );
}

function SsoButtons() {
  const [keys, setKeys] = useState<string[]>([]);
  useEffect(() => {
    ssoProviders().then(setKeys, () => setKeys([]));
  }, []);
  if (keys.length === 0) return null;
  return (
    <section aria-labelledby="sso-heading">
      <h2 id="sso-heading">With single sign-on</h2>
      <div class="sso-buttons">
        {keys.map((key) => (
          <a key={key} class="button secondary" data-sso={key} href={ssoStartHref(key, hrefOf('journey'))}>
            Continue with {providerLabel(key)}
          </a>
        ))}
      </div>
    </section>
  );
}

export function SignInPage() {
  useEffect(() => {
    document.title = 'Sign in · TAP console';
  }, []);
  return (
    <AuthShell title="Sign in">
      <PasswordForm />
      <hr />
      <MagicLinkForm />
      <SsoButtons />
      <p class="muted">
        New here? <Link page="sign-up">Create an account</Link>
      </p>
    </AuthShell>
  );
}
