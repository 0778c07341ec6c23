import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { contracts } from '@tap/contracts';
import { createClient, GrpcStatus, tlsFromPem, unaryCall } from '@tap/grpc-kit';
import { testIdentity } from '@tap/testkit';
import { remoteError } from '@tap/service-testkit';
import { openTestBed, type TestBed } from './support/test-bed.js';

describe("adoption's callers", () => {
  let bed: TestBed;
  let address: string;

  beforeAll(async () => {
    bed = await openTestBed('service-auth');
    address = bed.client
      .getChannel()
      .getTarget()
      .replace(/^ipv4:|^dns:\/\/\//, '');
  });
  afterAll(async () => {
    await bed?.close();
  });

  it("refuses a signed-out session's token called over gRPC with the gateway's identity", async () => {
    const tenantId = randomUUID();
    const bearer = await bed.as(tenantId);
    await expect(unaryCall(bed.client, 'GetState', {}, bearer)).resolves.toBeDefined();
    const { sessionId } = await bed.tokens.verifier.verify(bearer.authorization.slice('Bearer '.length));
    await bed.revocations.revoke(sessionId);
    const refused = await remoteError(unaryCall(bed.client, 'GetState', {}, bearer));
    expect([refused.grpcStatus, refused.reason]).toEqual([GrpcStatus.UNAUTHENTICATED, 'TOKEN_INVALID']);
  });

  it('refuses a service the allowlist does not name (entitlements calling adoption) before reading the token', async () => {
    const entitlements = createClient(
      contracts().adoption.AdoptionService,
      address,
      tlsFromPem(await testIdentity('entitlements')),
    );
    try {
      const refused = await remoteError(unaryCall(entitlements, 'GetState', {}, await bed.as(randomUUID())));
      expect(refused.grpcStatus).toBe(GrpcStatus.PERMISSION_DENIED);
    } finally {
      entitlements.close();
    }
  });
});
