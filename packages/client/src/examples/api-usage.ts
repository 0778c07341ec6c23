import { createTapClient } from '../index.js';

// The README's integration example, word for word but this import (test/readme.test.ts checks
// it); tests/system/test/client-back-off.test.ts runs it against the real stack, 429 included.
export async function apiUsage(baseUrl: string, clientId: string, clientSecret: string) {
  const tap = createTapClient({
    baseUrl, // e.g. https://tap.example/api/v1
    auth: { kind: 'clientCredentials', clientId, clientSecret, scopes: ['products:read'] },
    backOff: { maxRetries: 3, maxDelayMs: 5_000 }, // a 429 is waited out (Retry-After) up to 5 s
  });
  const { data, error, response } = await tap.GET('/entitlements/usage');
  if (response.status === 429) return { retryAfterS: Number(response.headers.get('retry-after')) };
  if (error) throw new Error(`${response.status}: ${JSON.stringify(error)}`);
  return { tier: data.data.tier.code, apiRequestsToday: data.data.rateLimits['API_REQUESTS_DAY'] };
}
