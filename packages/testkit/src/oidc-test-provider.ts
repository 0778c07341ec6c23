import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A user the test provider knows, by its subject. */
export interface OidcTestAccount {
  readonly sub: string;
  readonly email: string;
  readonly emailVerified?: boolean;
  readonly givenName?: string;
  readonly familyName?: string;
}

export interface OidcTestProvider {
  /** The issuer, `http://127.0.0.1:PORT` (discovery at /.well-known/openid-configuration). */
  readonly issuer: string;
  /** Adds or replaces an account the login page accepts. */
  addAccount(account: OidcTestAccount): void;
  /** The next token response carries an ID token with one signature character changed (a bad-input test). */
  tamperNextIdToken(): void;
  stop(): Promise<void>;
}

/** The provider's login page: one field for the account (a subject, or any e-mail when allowed). */
function loginPage(uid: string): string {
  const action = `/interaction/${encodeURIComponent(uid)}`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,"><title>Test OpenID Provider: sign in</title></head>
<body><main><h1>Sign in at the test provider</h1>
<form method="get" action="${action}"><label for="login">Account (subject or e-mail)</label>
<input id="login" name="login" required autocomplete="username"> <button type="submit">Sign in</button></form>
</main></body></html>`;
}

/**
 * A real OpenID Provider (oidc-provider) on loopback for tests and the local stack: one
 * confidential client (authorization code, PKCE required), and a login "page" that signs in the
 * account named in its `login` query parameter and grants openid, email and profile at once.
 * A browser test follows the provider's redirects and adds `?login=<sub>` to the interaction URL.
 */
export async function startOidcProvider(options: {
  clientId: string;
  clientSecret: string;
  redirectUris: readonly string[];
  accounts?: readonly OidcTestAccount[];
  /** The local stack's convenience: any `login` that looks like an email signs in as that (verified) address. */
  anyEmailLogin?: boolean;
}): Promise<OidcTestProvider> {
  const accounts = new Map((options.accounts ?? []).map((a) => [a.sub, a]));
  const server: Server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // Loaded here, not at the test kit's import: only SSO tests and the local stack pay for it.
  const { default: Provider } = await import('oidc-provider');
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: options.clientId,
        client_secret: options.clientSecret,
        redirect_uris: [...options.redirectUris],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    pkce: { required: () => true },
    // The email and profile claims in the ID token itself (the gateway reads no userinfo).
    conformIdTokenClaims: false,
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['given_name', 'family_name'] },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    cookies: { keys: ['test-provider-cookie-key-0123456789'] },
    findAccount: async (_ctx: unknown, sub: string) => {
      const account = accounts.get(sub);
      if (!account) return undefined;
      return {
        accountId: sub,
        claims: async () => ({
          sub,
          email: account.email,
          email_verified: account.emailVerified ?? true,
          ...(account.givenName ? { given_name: account.givenName } : {}),
          ...(account.familyName ? { family_name: account.familyName } : {}),
        }),
      };
    },
  });
  const handle = provider.callback();
  let tamper = false;
  server.on('request', (req, res) => {
    const url = new URL(req.url ?? '/', issuer);
    if (url.pathname === '/token' && tamper) {
      tamper = false;
      const end = res.end.bind(res) as (chunk?: unknown) => typeof res;
      res.end = ((chunk?: unknown) =>
        end(
          typeof chunk === 'string' || Buffer.isBuffer(chunk) ? tamperIdToken(chunk.toString()) : chunk,
        )) as typeof res.end;
    }
    if (!url.pathname.startsWith('/interaction/')) return handle(req, res);
    void (async () => {
      try {
        const details = await provider.interactionDetails(req, res);
        let result: Record<string, unknown>;
        if (details.prompt.name === 'login' && !url.searchParams.has('login')) {
          // A person in a browser gets a sign-in form (no script) that sends `login` back here.
          res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
          res.end(loginPage(details.uid));
          return;
        }
        if (details.prompt.name === 'login') {
          const sub = url.searchParams.get('login') ?? '';
          if (options.anyEmailLogin && !accounts.has(sub) && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(sub))
            accounts.set(sub, { sub, email: sub });
          result = accounts.has(sub)
            ? { login: { accountId: sub } }
            : { error: 'access_denied', error_description: 'unknown account' };
        } else {
          const grant = new provider.Grant({
            accountId: details.session!.accountId,
            clientId: String(details.params['client_id']),
          });
          grant.addOIDCScope('openid email profile');
          result = { consent: { grantId: await grant.save() } };
        }
        const location = await provider.interactionResult(req, res, result, {
          mergeWithLastSubmission: false,
        });
        res.writeHead(303, { location }).end();
      } catch (error) {
        res.writeHead(400, { 'content-type': 'text/plain' }).end((error as Error).message);
      }
    })();
    return undefined;
  });
  return {
    issuer,
    addAccount: (account) => void accounts.set(account.sub, account),
    tamperNextIdToken: () => {
      tamper = true;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Changes one character in the middle of the ID token's signature (same length, so Content-Length holds). */
function tamperIdToken(body: string): string {
  try {
    const parsed = JSON.parse(body) as { id_token?: string };
    if (!parsed.id_token) return body;
    const parts = parsed.id_token.split('.');
    const signature = parts[2] ?? '';
    const at = Math.floor(signature.length / 2);
    parts[2] = `${signature.slice(0, at)}${signature[at] === 'A' ? 'B' : 'A'}${signature.slice(at + 1)}`;
    return JSON.stringify({ ...parsed, id_token: parts.join('.') });
  } catch {
    return body;
  }
}
