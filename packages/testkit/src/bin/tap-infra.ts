#!/usr/bin/env node
import { spawn } from 'node:child_process';
import { parseArgs } from 'node:util';
import { randomBytes } from 'node:crypto';
import { startOidcProvider, type OidcTestProvider } from '../oidc-test-provider.js';
import { startSmtpSink } from '../smtp-sink.js';
import { startInfrastructure } from '../start-infrastructure.js';
import { ensureDevPki } from '../pki/dev-pki.js';

const USAGE =
  'usage: tap-infra run [--standard-ports] [--data-dir DIR] -- <command> [args...]\n       tap-infra pki DIR';

/**
 * Runs a command with MONGO_URL, NATS_URL and REDIS_URL pointing at infrastructure started for
 * it (or taken from the environment), and stops that infrastructure when the command ends.
 * Unless SMTP_URL is set, it also runs a mail sink (SMTP on loopback, port 1025 with
 * --standard-ports) that prints every message it gets: magic links in development. With
 * --standard-ports (the local stack) and no SSO_PROVIDERS, it also runs two OpenID Providers
 * (`enterprise`, `consumer`) for the gateway's SSO; their login accepts any email address
 * (`/interaction/{uid}?login=you@example.com`).
 *
 * `tap-infra pki DIR` makes (or renews) the local PKI of the services' mTLS in DIR.
 */
async function main(argv: string[]): Promise<number> {
  const split = argv.indexOf('--');
  const own = split === -1 ? argv : argv.slice(0, split);
  const command = split === -1 ? [] : argv.slice(split + 1);
  const { positionals, values } = parseArgs({
    args: own,
    allowPositionals: true,
    options: { 'standard-ports': { type: 'boolean' }, 'data-dir': { type: 'string' } },
  });
  if (positionals[0] === 'pki' && positionals[1]) {
    // The local stack's CA and per-service certificates: made on first run, reused after, leaves
    // near expiry issued again (docs/security.md "Service identity").
    const dirs = await ensureDevPki(positionals[1]);
    console.error(`[tap-infra] service certificates in ${positionals[1]} (${Object.keys(dirs).join(', ')})`);
    return 0;
  }
  if (positionals[0] !== 'run' || command.length === 0) {
    console.error(USAGE);
    return 2;
  }
  const infra = await startInfrastructure({
    ports: values['standard-ports'] ? 'standard' : 'free',
    ...(values['data-dir'] ? { dataDir: values['data-dir'] } : {}),
  });
  console.error(
    `[tap-infra] mongo ${infra.mongoUrl} (${infra.sources.mongo}), nats ${infra.natsUrl} (${infra.sources.nats}), redis ${infra.redisUrl} (${infra.sources.redis})`,
  );
  const mail = process.env['SMTP_URL']
    ? undefined
    : await startSmtpSink({
        port: values['standard-ports'] ? 1025 : 0,
        onMessage: (m) => console.error(`[tap-infra] mail to ${m.to.join(', ')}: ${m.subject}\n${m.text}`),
      });
  if (mail) console.error(`[tap-infra] mail sink ${mail.url}`);
  const providers: { key: string; issuer: string; clientId: string; clientSecret: string }[] = [];
  const running: OidcTestProvider[] = [];
  if (values['standard-ports'] && !process.env['SSO_PROVIDERS']) {
    const api = (process.env['PUBLIC_API_URL'] ?? 'http://localhost:3000/api/v1').replace(/\/$/, '');
    for (const key of ['enterprise', 'consumer']) {
      const clientSecret = randomBytes(24).toString('base64url');
      const provider = await startOidcProvider({
        clientId: `tap-${key}`,
        clientSecret,
        redirectUris: [`${api}/auth/v2/sso/${key}/callback`],
        anyEmailLogin: true,
      });
      running.push(provider);
      providers.push({ key, issuer: provider.issuer, clientId: `tap-${key}`, clientSecret });
      console.error(`[tap-infra] OpenID Provider ${key} ${provider.issuer}`);
    }
  }
  const [file, ...args] = command as [string, ...string[]];
  const child = spawn(file, args, {
    stdio: 'inherit',
    env: {
      ...process.env,
      MONGO_URL: infra.mongoUrl,
      NATS_URL: infra.natsUrl,
      REDIS_URL: infra.redisUrl,
      ...(mail ? { SMTP_URL: mail.url } : {}),
      ...(providers.length ? { SSO_PROVIDERS: JSON.stringify(providers) } : {}),
    },
  });
  const forward = (signal: NodeJS.Signals): void => {
    child.kill(signal);
  };
  process.on('SIGINT', forward);
  process.on('SIGTERM', forward);
  const code = await new Promise<number>((resolve) => {
    child.once('exit', (exitCode, signal) => resolve(exitCode ?? (signal ? 128 + 15 : 1)));
  });
  await Promise.all(running.map((provider) => provider.stop()));
  await mail?.stop();
  await infra.stop();
  return code;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`[tap-infra] ${(error as Error).message}`);
    process.exit(1);
  },
);
