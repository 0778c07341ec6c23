import { startOidcProvider, type OidcTestProvider } from '@tap/testkit';

/** The two providers of the spec's "Single sign-on": the directory one and the consumer one. */
export const SSO_KEYS = ['enterprise', 'consumer'] as const;
/** The web app of a process stack with SSO: `returnTo` and the SSO result pages live there. */
export const PROCESS_APP_ORIGIN = 'https://app.process-stack.example';
const SECRET = 'process-stack-sso-client-secret-0123456789';

/** Two real OpenID Providers on loopback and the gateway environment that names them. */
export interface ProcessSso {
  /** `SSO_PROVIDERS`, `APP_URL`, `PUBLIC_API_URL`, `ALLOWED_ORIGINS` for the gateway. */
  readonly env: Readonly<Record<string, string>>;
  /** The running providers by key (a browser test adds the accounts their login page accepts). */
  readonly providers: ReadonlyMap<string, OidcTestProvider>;
  stop(): Promise<void>;
}

/**
 * Starts the providers for a gateway reached at `base` (the proxy in front of it): each
 * registers `{base}/api/v1/auth/v2/sso/{key}/callback`, as an operator registers the public URL.
 */
export async function startProcessSso(base: string): Promise<ProcessSso> {
  const started: OidcTestProvider[] = [];
  const stop = async () => {
    await Promise.all(started.map((provider) => provider.stop()));
  };
  try {
    for (const key of SSO_KEYS) {
      started.push(
        await startOidcProvider({
          clientId: `tap-${key}`,
          clientSecret: SECRET,
          redirectUris: [`${base}/api/v1/auth/v2/sso/${key}/callback`],
        }),
      );
    }
  } catch (error) {
    await stop();
    throw error;
  }
  const providers = SSO_KEYS.map((key, index) => ({
    key,
    issuer: started[index]!.issuer,
    clientId: `tap-${key}`,
    clientSecret: SECRET,
  }));
  return {
    env: {
      SSO_PROVIDERS: JSON.stringify(providers),
      APP_URL: PROCESS_APP_ORIGIN,
      PUBLIC_API_URL: `${base}/api/v1`,
      ALLOWED_ORIGINS: PROCESS_APP_ORIGIN,
    },
    providers: new Map(SSO_KEYS.map((key, index) => [key, started[index]!])),
    stop,
  };
}
