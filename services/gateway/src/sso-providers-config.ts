import { ConfigError } from '@tap/config';

export interface SsoProviderSettings {
  readonly key: string;
  readonly issuer: string;
  readonly clientId: string;
  readonly clientSecret: string;
}

const KEY = /^[a-z0-9][a-z0-9-]{0,31}$/;

/**
 * `SSO_PROVIDERS`: a JSON array of `{ key, issuer, clientId, clientSecret }` (docs/browser-sessions.md).
 * The message never echoes the value (it holds client secrets).
 */
export function parseSsoProviders(input: string): readonly SsoProviderSettings[] {
  const fail = (problem: string) => new ConfigError([{ variable: 'SSO_PROVIDERS', problem }]);
  let parsed: unknown;
  try {
    parsed = JSON.parse(input);
  } catch {
    throw fail('must be a JSON array of { key, issuer, clientId, clientSecret }');
  }
  if (!Array.isArray(parsed)) throw fail('must be a JSON array');
  return Object.freeze(
    parsed.map((entry: Record<string, unknown>, index) => {
      const { key, issuer, clientId, clientSecret } = entry ?? {};
      if (typeof key !== 'string' || !KEY.test(key))
        throw fail(`entry ${index}: key must be lower-case letters, digits, hyphens`);
      if (typeof issuer !== 'string' || !/^https?:\/\//.test(issuer))
        throw fail(`entry ${index}: issuer must be an http(s) URL`);
      if (typeof clientId !== 'string' || !clientId || typeof clientSecret !== 'string' || !clientSecret)
        throw fail(`entry ${index}: clientId and clientSecret are required`);
      return Object.freeze({ key, issuer, clientId, clientSecret });
    }),
  );
}
