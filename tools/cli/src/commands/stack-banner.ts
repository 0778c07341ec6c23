import type { SeededTenant } from './seed.js';

/** Where the local stack answers (`tap stack` starts the gateway on these). */
export interface StackAddresses {
  /** The gateway's origin, e.g. http://localhost:3000. */
  readonly gateway: string;
  /** The gateway's admin port (Prometheus /metrics), e.g. http://127.0.0.1:9464. */
  readonly admin: string;
}

export const LOCAL_STACK: StackAddresses = {
  gateway: 'http://localhost:3000',
  admin: 'http://127.0.0.1:9464',
};

/**
 * What `npm run up` prints once every service is ready: what to open, how to sign in as each
 * demo tenant's OWNER, and commands that work as they are in a new terminal (the CLI takes its
 * development defaults from config/dev.env itself). Passwords and secrets are the ones this
 * start set: they exist only as hashes in the database, so this is the one place they show.
 */
export function stackBanner(seeded: readonly SeededTenant[], at: StackAddresses = LOCAL_STACK): string {
  const api = `${at.gateway}/api/v1`;
  const lines = [
    '',
    'The stack is up. Open:',
    `  console      ${at.gateway}/console/   (sign in as a demo owner below: password, e-mail link or SSO)`,
    `  API          ${api}`,
    `  OpenAPI 3.1  ${api}/openapi.json   (the exact contract; docs/api.md explains it)`,
    `  reference    ${api}/docs   (the same contract as a page to read and try)`,
    `  readiness    ${at.gateway}/readyz`,
    `  metrics      ${at.admin}/metrics   (admin port, loopback only)`,
    'Sign-in links are printed here as mail (the local mail sink); the SSO providers accept any e-mail.',
    '',
    `Demo tenants, one per tier. Sign in as the OWNER in the console, or with POST ${api}/auth/login;`,
    'passwords and client secrets below are new on every start (`npm run tap -- seed` makes new ones):',
  ];
  for (const t of seeded) {
    lines.push(`  ${t.tier.padEnd(14)} ${t.slug.padEnd(20)} tenant ${t.tenantId}`);
    lines.push(`    owner         ${t.owner.email}  password ${t.owner.password}`);
    lines.push(`    oauth client  ${t.oauthClient.clientId}  secret ${t.oauthClient.clientSecret}`);
  }
  const demo = seeded.find((t) => t.tier === 'CORE') ?? seeded[0];
  if (demo) {
    lines.push(
      '',
      'Try, in any terminal from this directory (nothing to source first):',
      `  curl -s -H 'content-type: application/json' -d '{"email":"${demo.owner.email}","password":"${demo.owner.password}"}' ${api}/auth/login`,
      `  curl -s -H "Authorization: Bearer ${demo.accessToken}" ${api}/tenant/adoption/state`,
      `  curl -s -d grant_type=client_credentials -d client_id=${demo.oauthClient.clientId} -d client_secret=${demo.oauthClient.clientSecret} ${api}/oauth/token`,
      `  npm run tap -- publish-event --tenant ${demo.tenantId} --kind product.created --subject productId=p-1`,
      `  npm run tap -- token --tenant ${demo.tenantId} --role OWNER`,
      '  npm run tap -- seed --json      (the demo tenants again: new passwords, secrets and 15-minute tokens)',
      '  npm run tap -- --help',
    );
  }
  lines.push('Ctrl-C stops everything.', '');
  return lines.join('\n');
}
