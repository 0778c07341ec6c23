import { randomUUID } from 'node:crypto';
import { contracts } from '@tap/contracts';
import { createGrpcServer, type GrpcServer } from '@tap/grpc-kit';
import type { Logger } from '@tap/telemetry';
import { createTokenVerifier } from '@tap/tokens';
import type { Db } from 'mongodb';
import type { IdentityConfig } from './config.js';
import { identityHandlers } from './grpc/identity-handlers.js';
import { createKeyRing, type KeyRing } from './keys/key-ring.js';
import { signingKeysRepository } from './store/signing-keys-repository.js';
import { tenantsRepository } from './store/tenants-repository.js';

export interface IdentityDeps {
  readonly config: Pick<IdentityConfig, 'tokens' | 'operatorToken'>;
  readonly db: Db;
  readonly logger: Logger;
  readonly now?: () => Date;
  readonly newId?: () => string;
}

export interface IdentityApp {
  readonly grpc: GrpcServer;
  readonly keyRing: KeyRing;
  /** Creates indexes and loads (or creates) the signing key; needs the database. */
  prepare(): Promise<void>;
}

/** Builds the identity service without listening: what tests and main.ts both use. */
export function buildApp(deps: IdentityDeps): IdentityApp {
  const now = deps.now ?? (() => new Date());
  const tenants = tenantsRepository(deps.db);
  const keyRing = createKeyRing({
    repository: signingKeysRepository(deps.db),
    keyEncryptionSecret: deps.config.tokens.keyEncryptionSecret,
    issuer: deps.config.tokens.issuer,
    audience: deps.config.tokens.audience,
  });
  const verifier = createTokenVerifier({
    issuer: deps.config.tokens.issuer,
    audience: deps.config.tokens.audience,
    fetchJwks: async () => ({ keys: await keyRing.jwks(now()) }),
  });
  const handlers = identityHandlers({
    tenants,
    keyRing,
    verifier,
    operatorToken: deps.config.operatorToken,
    logger: deps.logger,
    now,
    newId: deps.newId ?? randomUUID,
  });
  const grpc = createGrpcServer([
    { name: 'tap.identity.v1.IdentityService', definition: contracts().identity.IdentityService.service, implementation: handlers },
  ]);
  return {
    grpc,
    keyRing,
    async prepare() {
      await tenants.ensureIndexes();
      await keyRing.load(now());
    },
  };
}
