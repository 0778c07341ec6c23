import { field } from '../lib/form.js';
import { useEffect, useState } from 'preact/hooks';
import { apiRaw } from '../lib/api.js';
import { AuthShell, Link } from '../components/layout.js';
import { ErrorNotice, Notice } from '../components/ui.js';

/** POST /auth/v2/signup: the company and the founder's names; a confirmation link is mailed. */
export function SignUpPage() {
  const [sent, setSent] = useState<string | undefined>();
  const [error, setError] = useState<unknown>();
  useEffect(() => {
    document.title = 'Sign up · TAP console';
  }, []);
  const submit = async (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    setError(undefined);
    try {
      const body = (await apiRaw('POST', '/auth/v2/signup', {
        email: field(form, 'email'),
        companyName: field(form, 'companyName'),
        firstName: field(form, 'firstName'),
        lastName: field(form, 'lastName'),
      })) as { message?: string };
      setSent(body.message ?? 'Check your inbox for a confirmation link.');
    } catch (caught) {
      setError(caught);
    }
  };
  return (
    <AuthShell title="Create your account">
      {sent ? (
        <Notice kind="success">{sent}</Notice>
      ) : (
        <form onSubmit={(e) => void submit(e)}>
          <label for="companyName">Company name</label>
          <input id="companyName" name="companyName" required maxLength={200} autocomplete="organization" />
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
          <label for="email">Work e-mail</label>
          <input id="email" name="email" type="email" required maxLength={320} autocomplete="email" />
          <ErrorNotice error={error} />
          <button type="submit">Send me a confirmation link</button>
        </form>
      )}
      <p class="muted">
        Already have an account? <Link page="sign-in">Sign in</Link>
      </p>
    </AuthShell>
  );
}
