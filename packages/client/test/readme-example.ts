// The README's integration example, kept compiling by `npm run typecheck` (never run).
import { createTapClient } from '../src/index.js';

export async function readmeExample(): Promise<void> {
  const tap = createTapClient({
    baseUrl: 'http://localhost:3000/api/v1',
    auth: {
      kind: 'clientCredentials',
      clientId: process.env.TAP_CLIENT_ID ?? '',
      clientSecret: process.env.TAP_CLIENT_SECRET ?? '',
      scopes: ['products:read'], // the minimum this integration needs
    },
  });
  const { data, error, response } = await tap.GET('/tenant/adoption/state');
  if (error) throw new Error(`${response.status}: ${JSON.stringify(error)}`);
  console.log(data.data.currentMaturityRung, data.data.healthBand);
}
