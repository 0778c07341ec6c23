import type { IdentityServiceClient } from '@tap/contracts';
import { unaryCall } from '@tap/grpc-kit';
import { infraUrls } from '@tap/testkit';
import {
  generateSigningKey,
  importPrivateKey,
  unsealPrivateJwk,
  createTokenSigner,
  type AccessTokenInput,
} from '@tap/tokens';
import { MongoClient, type Db } from 'mongodb';
import {
  OPERATOR_TOKEN,
  SYSTEM_KEY_ENCRYPTION_SECRET,
  SYSTEM_TOKENS,
  type HttpResponse,
  type System,
  identityClientAt,
} from './system.js';

/** What a test needs to sign in as someone. */
export interface Account {
  readonly tenantId: string;
  readonly userId: string;
  readonly email: string;
  readonly password: string;
}

export interface TokenPair {
  readonly accessToken: string;
  readonly refreshToken: string;
}

/**
 * Identity arrangements for system tests: accounts and OAuth clients made with the operator
 * credential, sign-ins over HTTP (each from its own client address, so the per-IP login limit
 * is only met where a test means to), and tokens forged with identity's own key or a stranger's.
 */
export interface IdentityFixtures {
  readonly identity: IdentityServiceClient;
  /** Identity's own database (to arrange what HTTP cannot: an expired session, an inactive user). */
  readonly db: Db;
  tenantWithOwner(name: string): Promise<Account>;
  addUser(tenantId: string, role: string): Promise<Account>;
  oauthClient(tenantId: string, scopes: string[]): Promise<{ clientId: string; clientSecret: string }>;
  /** POST /auth/login from a fresh client address (X-Forwarded-For; the gateway trusts one hop). */
  login(account: Pick<Account, 'email' | 'password'>): Promise<HttpResponse>;
  signIn(account: Account): Promise<TokenPair>;
  refresh(refreshToken: string): Promise<HttpResponse>;
  clientToken(clientId: string, clientSecret: string, scope?: string): Promise<string>;
  /** A token signed with identity's current private key (unsealed with the test's secret). */
  forge(
    claims: Partial<AccessTokenInput>,
    options?: {
      issuedAt?: Date;
      audience?: string;
      issuer?: string;
      key?: 'identity' | 'stranger';
      kid?: string;
    },
  ): Promise<string>;
  close(): Promise<void>;
}

export const form = (params: Record<string, string>): string => new URLSearchParams(params).toString();
export const FORM_HEADERS = { 'content-type': 'application/x-www-form-urlencoded' };

export async function openIdentityFixtures(system: System): Promise<IdentityFixtures> {
  const identity = await identityClientAt(system.addresses.identity);
  const mongo = new MongoClient(infraUrls().mongoUrl);
  const db = mongo.db(`${system.namespace}_identity`);
  const operator = { authorization: `Operator ${OPERATOR_TOKEN}` };
  let counter = 0;
  const next = () => (counter += 1);
  const address = () => `198.51.${Math.floor(counter / 250)}.${(counter % 250) + 1}`;

  const fixtures: IdentityFixtures = {
    identity,
    db,
    async tenantWithOwner(name) {
      const n = next();
      const email = `owner-${n}@${system.namespace.replace(/_/g, '-')}.example`;
      const password = `owner passphrase ${n}`;
      const created = await unaryCall(
        identity,
        'CreateTenantWithOwner',
        { name: `${name} ${n}`, slug: '', owner: { email, firstName: 'Olive', lastName: 'Owner', password } },
        operator,
      );
      return { tenantId: created.tenant!.id, userId: created.owner!.id, email, password };
    },
    async addUser(tenantId, role) {
      const n = next();
      const email = `${role.toLowerCase()}-${n}@${system.namespace.replace(/_/g, '-')}.example`;
      const password = `${role} passphrase ${n}`;
      const user = await unaryCall(
        identity,
        'CreateUser',
        { tenantId, user: { email, firstName: 'Uma', lastName: 'User', password }, role },
        operator,
      );
      return { tenantId, userId: user.id, email, password };
    },
    async oauthClient(tenantId, scopes) {
      const created = await unaryCall(
        identity,
        'CreateOAuthClient',
        { tenantId, name: `client ${next()}`, scopes },
        operator,
      );
      return { clientId: created.client!.clientId, clientSecret: created.clientSecret };
    },
    async login(account) {
      next();
      return system.http('POST', '/api/v1/auth/login', {
        headers: { 'x-forwarded-for': address() },
        body: { email: account.email, password: account.password },
      });
    },
    async signIn(account) {
      const response = await fixtures.login(account);
      if (response.status !== 200)
        throw new Error(`login failed: ${response.status} ${JSON.stringify(response.body)}`);
      const { accessToken, refreshToken } = (response.body as { data: TokenPair }).data;
      return { accessToken, refreshToken };
    },
    refresh(refreshToken) {
      return system.http('POST', '/api/v1/auth/refresh', { body: { refreshToken } });
    },
    async clientToken(clientId, clientSecret, scope) {
      const response = await system.http('POST', '/api/v1/oauth/token', {
        headers: FORM_HEADERS,
        body: form({
          grant_type: 'client_credentials',
          client_id: clientId,
          client_secret: clientSecret,
          ...(scope ? { scope } : {}),
        }),
      });
      if (response.status !== 200)
        throw new Error(`token failed: ${response.status} ${JSON.stringify(response.body)}`);
      return (response.body as { access_token: string }).access_token;
    },
    async forge(claims, options = {}) {
      const input: AccessTokenInput = {
        subject: 'forged',
        kind: 'user',
        tenantId: 't',
        role: 'OWNER',
        scopes: [],
        sessionId: 's',
        ...claims,
      };
      let kid: string;
      let privateKey: Awaited<ReturnType<typeof importPrivateKey>>;
      if (options.key === 'stranger') {
        const stranger = await generateSigningKey();
        kid = stranger.kid;
        privateKey = await importPrivateKey(stranger.privateJwk);
      } else {
        const pointer = await db
          .collection<{ _id: string; kid: string }>('signing_state')
          .findOne({ _id: 'current' });
        const stored = await db
          .collection<{ _id: string; sealedPrivateJwk: string }>('signing_keys')
          .findOne({ _id: pointer!.kid });
        kid = stored!._id;
        privateKey = await importPrivateKey(
          await unsealPrivateJwk(stored!.sealedPrivateJwk, SYSTEM_KEY_ENCRYPTION_SECRET),
        );
      }
      const signer = createTokenSigner({
        kid: options.kid ?? kid,
        privateKey,
        issuer: options.issuer ?? SYSTEM_TOKENS.issuer,
        audience: options.audience ?? SYSTEM_TOKENS.audience,
      });
      return (await signer.sign(input, options.issuedAt)).token;
    },
    async close() {
      identity.close();
      await mongo.close();
    },
  };
  return fixtures;
}
