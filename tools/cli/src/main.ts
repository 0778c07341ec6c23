#!/usr/bin/env node
import { relative } from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError, formatIssue } from '@tap/config';
import { isRemoteCallError } from '@tap/grpc-kit';
import { CLI_VARIABLES, loadCliConfig } from './cli-config.js';
import { DEV_DEFAULTS_FILE, loadDevDefaults } from './dev-defaults.js';
import { buildEvent, publishEvent } from './commands/publish-event.js';
import {
  createOAuthClient,
  createTenantWithOwner,
  createUser,
  rotateSigningKey,
} from './commands/identity.js';
import { seed } from './commands/seed.js';
import { runStack } from './commands/stack.js';
import { stackBanner } from './commands/stack-banner.js';
import { createTenant, issueToken, setTier } from './commands/tenants.js';
import { derivedTokenHashSecret } from './commands/token-hash-secret.js';
import { operatorClients } from './operator-clients.js';

const USAGE = `tap: the platform's operator CLI

  tap create-tenant --name NAME [--slug SLUG] [--owner-email EMAIL --owner-first NAME --owner-last NAME]
  tap create-user --tenant TENANT_ID --email EMAIL --first NAME --last NAME [--role OWNER|ADMIN|MEMBER]
  tap create-client --tenant TENANT_ID --name NAME --scope SCOPE [--scope SCOPE ...]
  tap rotate-signing-key    a new key signs in 2 s; the old one verifies until its tokens expired
  tap rotate-signing-key --retire-previous-now
                            key compromise: the new key signs at once, every earlier key leaves
                            the JWKS now and its tokens are refused within JWKS_REFRESH_INTERVAL_MS
  tap set-tier --tenant TENANT_ID --tier SUPPLIER_FREE|SUPPLIER_PLUS|CORE|SVC_CORE|ENTERPRISE
  tap token --tenant TENANT_ID [--role OWNER|ADMIN|MEMBER] [--scope SCOPE ...]
  tap publish-event --tenant TENANT_ID --kind KIND [--subject key=value ...] [--data JSON] [--id UUID] [--at ISO]
  tap seed [--json]         demo tenants with an OWNER (email, password) and an OAuth client (id, secret)
  tap stack                 run the services locally (used by npm run up)
  tap token-hash-secret     print the TOKEN_HASH_SECRET identity derives from KEY_ENCRYPTION_SECRET
                            (read from the environment): pin it before rotating that secret

Passwords and client secrets are generated, printed once and stored only as hashes.

Environment: OPERATOR_TOKEN (required, except by token-hash-secret), IDENTITY_GRPC_ADDRESS, ENTITLEMENTS_GRPC_ADDRESS,
NATS_URL, EVENTS_SUBJECT_PREFIX, EVENTS_STREAM, GRPC_TLS_CERT_FILE / GRPC_TLS_KEY_FILE / GRPC_TLS_CA_FILE (the
operator certificate; default .infra/pki/operator/, made by npm run up). When every address is loopback (the
defaults: the stack of npm run up), unset variables come from the repository's config/dev.env; never for
remote addresses.`;

const OPTIONS = {
  name: { type: 'string' },
  'owner-email': { type: 'string' },
  'owner-first': { type: 'string' },
  'owner-last': { type: 'string' },
  email: { type: 'string' },
  first: { type: 'string' },
  last: { type: 'string' },
  slug: { type: 'string' },
  tenant: { type: 'string' },
  tier: { type: 'string' },
  role: { type: 'string' },
  scope: { type: 'string', multiple: true },
  kind: { type: 'string' },
  subject: { type: 'string', multiple: true },
  data: { type: 'string' },
  id: { type: 'string' },
  at: { type: 'string' },
  json: { type: 'boolean' },
  'retire-previous-now': { type: 'boolean' },
  help: { type: 'boolean' },
} as const;

function required(value: string | undefined, flag: string): string {
  if (!value) throw new UsageError(`--${flag} is required`);
  return value;
}

class UsageError extends Error {}

async function main(argv: string[]): Promise<void> {
  const { positionals, values } = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true });
  const command = positionals[0];
  if (!command || values.help) {
    console.log(USAGE);
    return;
  }
  if (command === 'token-hash-secret') {
    // Bare on stdout, for `kubectl create secret ... --from-literal=TOKEN_HASH_SECRET="$(...)"`.
    process.stdout.write(`${derivedTokenHashSecret(process.env)}\n`);
    return;
  }
  // A new terminal next to `npm run up` has none of dev-env.sh's variables: against a loopback
  // stack the checked-in development defaults stand in for them (never for remote targets).
  const { env, applied } = loadDevDefaults(process.env, CLI_VARIABLES);
  if (applied.length > 0) {
    console.error(
      `tap: ${applied.join(', ')} not set; using the development defaults in ${relative(process.cwd(), DEV_DEFAULTS_FILE) || DEV_DEFAULTS_FILE} (loopback stack only)`,
    );
  }
  const config = loadCliConfig(env);
  const print = (value: unknown) => console.log(JSON.stringify(value, null, 2));

  if (command === 'publish-event') {
    const event = buildEvent({
      tenant: required(values.tenant, 'tenant'),
      kind: required(values.kind, 'kind'),
      subject: values.subject ?? [],
      ...(values.data ? { data: values.data } : {}),
      ...(values.id ? { id: values.id } : {}),
      ...(values.at ? { at: values.at } : {}),
    });
    print({ event, ...(await publishEvent(config, event)) });
    return;
  }

  const clients = operatorClients(config);
  try {
    switch (command) {
      case 'create-tenant': {
        const name = required(values.name, 'name');
        if (!values['owner-email']) return print(await createTenant(clients, name, values.slug));
        const owner = {
          email: values['owner-email'],
          firstName: required(values['owner-first'], 'owner-first'),
          lastName: required(values['owner-last'], 'owner-last'),
        };
        return print(await createTenantWithOwner(clients, name, values.slug ?? '', owner));
      }
      case 'create-user': {
        const account = {
          email: required(values.email, 'email'),
          firstName: required(values.first, 'first'),
          lastName: required(values.last, 'last'),
        };
        return print(
          await createUser(clients, required(values.tenant, 'tenant'), account, values.role ?? 'MEMBER'),
        );
      }
      case 'create-client': {
        const scopes = values.scope ?? [];
        if (scopes.length === 0) throw new UsageError('--scope is required (at least one)');
        return print(
          await createOAuthClient(
            clients,
            required(values.tenant, 'tenant'),
            required(values.name, 'name'),
            scopes,
          ),
        );
      }
      case 'rotate-signing-key':
        return print(await rotateSigningKey(clients, values['retire-previous-now'] ?? false));
      case 'set-tier':
        return print(
          await setTier(clients, required(values.tenant, 'tenant'), required(values.tier, 'tier')),
        );
      case 'token':
        return print(
          await issueToken(
            clients,
            required(values.tenant, 'tenant'),
            values.role ?? 'OWNER',
            values.scope ?? [],
          ),
        );
      case 'seed': {
        const seeded = await seed(clients);
        if (values.json) return print(seeded);
        for (const t of seeded) {
          console.log(`${t.tier.padEnd(14)} ${t.tenantId}  ${t.slug}`);
          console.log(`  owner: ${t.owner.email} / ${t.owner.password}`);
          console.log(`  oauth client: ${t.oauthClient.clientId} / ${t.oauthClient.clientSecret}`);
          console.log(`  token: ${t.accessToken}`);
        }
        return undefined;
      }
      case 'stack':
        return await runStack(async () => {
          console.log(stackBanner(await seed(clients)));
        });
      default:
        throw new UsageError(`unknown command ${command}`);
    }
  } finally {
    clients.close();
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof ConfigError) {
    for (const issue of error.issues) console.error(`tap: invalid configuration: ${formatIssue(issue)}`);
  } else if (error instanceof UsageError) {
    console.error(`tap: ${error.message}\n\n${USAGE}`);
  } else if (isRemoteCallError(error)) {
    console.error(`tap: ${error.reason ?? 'error'}: ${error.message}`);
  } else {
    console.error(`tap: ${(error as Error).message}`);
  }
  process.exitCode = 1;
});
