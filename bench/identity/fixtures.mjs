import { contracts } from '@tap/contracts';
import { createClient, tlsFromFiles, unaryCall } from '@tap/grpc-kit';
import { send } from './http-load.mjs';

const DEADLINE = { deadlineMs: 10_000 };

/**
 * A tenant with an OWNER, `clientCount` OAuth clients and `sessionCount` signed-in sessions,
 * made over identity's gRPC (operator) and the gateway's login endpoint.
 * @param {{ identityAddress: string; operatorToken: string; operatorTls: import('@tap/grpc-kit').TlsFiles; gatewayPort: number; clientCount: number; sessionCount: number }} options
 */
export async function arrange(options) {
  const identity = createClient(
    contracts().identity.IdentityService,
    options.identityAddress,
    tlsFromFiles(options.operatorTls),
  );
  const operator = { authorization: `Operator ${options.operatorToken}`, ...DEADLINE };
  try {
    const email = `bench-owner-${process.pid}@bench.example`;
    const password = 'bench owner passphrase';
    const created = await unaryCall(
      identity,
      'CreateTenantWithOwner',
      {
        name: `Bench ${process.pid}`,
        slug: '',
        owner: { email, firstName: 'Ben', lastName: 'Chmark', password },
      },
      operator,
    );
    const tenantId = created.tenant?.id ?? '';
    /** @type {Array<{ clientId: string; clientSecret: string }>} */
    const clients = [];
    // In batches: enough clients that the per-client limit (60/min) never binds during the run.
    for (let i = 0; i < options.clientCount; i += 25) {
      const batch = await Promise.all(
        Array.from({ length: Math.min(25, options.clientCount - i) }, () =>
          unaryCall(
            identity,
            'CreateOAuthClient',
            { tenantId, name: 'bench', scopes: ['products:read', 'dpp:read'] },
            operator,
          ),
        ),
      );
      for (const c of batch)
        clients.push({ clientId: c.client?.clientId ?? '', clientSecret: c.clientSecret });
    }
    /** @type {Array<{ accessToken: string; refreshToken: string }>} */
    const sessions = [];
    for (let i = 0; i < options.sessionCount; i += 1) {
      // One client address per login: the per-IP login limit (10/min) is not what is measured.
      const response = await send(options.gatewayPort, {
        method: 'POST',
        path: '/api/v1/auth/login',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': `198.18.${i >> 8}.${i & 255}` },
        body: JSON.stringify({ email, password }),
      });
      if (response.status !== 200) throw new Error(`login failed: ${response.status} ${response.text}`);
      sessions.push(JSON.parse(response.text).data);
    }
    return { tenantId, clients, sessions };
  } finally {
    identity.close();
  }
}
