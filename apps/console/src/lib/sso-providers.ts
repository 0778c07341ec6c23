import { API_BASE } from './api.js';

interface OpenApiParameter {
  name?: string;
  in?: string;
  example?: unknown;
  examples?: unknown;
  schema?: { example?: unknown; examples?: unknown; enum?: unknown };
}
interface OpenApiDocument {
  paths?: Record<string, { get?: { parameters?: OpenApiParameter[] } }>;
}

/** Examples as JSON Schema writes them (an array) or as OpenAPI does (a map of `{ value }`). */
const asKeys = (value: unknown): string[] => {
  const values = Array.isArray(value)
    ? (value as unknown[])
    : value !== null && typeof value === 'object'
      ? Object.values(value as Record<string, { value?: unknown }>).map((example) => example?.value)
      : [];
  return values.filter((v): v is string => typeof v === 'string');
};

/**
 * The configured SSO providers. The gateway has no listing endpoint: it names its providers in
 * the published contract, as the examples of the `provider` parameter of the SSO start route
 * (auth-v2-sso-schemas.ts), and serves that route only when providers are configured. An
 * empty list means no SSO buttons.
 */
export async function ssoProviders(): Promise<string[]> {
  const response = await fetch(`${API_BASE}/openapi.json`, { headers: { accept: 'application/json' } });
  if (!response.ok) return [];
  const document = (await response.json()) as OpenApiDocument;
  const start = Object.entries(document.paths ?? {}).find(([path]) =>
    path.endsWith('/auth/v2/sso/{provider}/start'),
  );
  const parameter = start?.[1].get?.parameters?.find((p) => p.in === 'path' && p.name === 'provider');
  if (!parameter) return [];
  const keys = [
    ...asKeys(parameter.schema?.examples),
    ...asKeys(parameter.examples),
    ...asKeys(parameter.schema?.enum),
  ];
  return [...new Set(keys)];
}

/** A navigation (not fetch): the start answers 302 to the provider; `returnTo` is a path on this origin. */
export const ssoStartHref = (key: string, returnTo: string): string =>
  `${API_BASE}/auth/v2/sso/${encodeURIComponent(key)}/start?returnTo=${encodeURIComponent(returnTo)}`;

export const providerLabel = (key: string): string => key.charAt(0).toUpperCase() + key.slice(1);
