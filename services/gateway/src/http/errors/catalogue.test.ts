import { describe, expect, it } from '@jest/globals';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { GATEWAY_ERRORS, OAUTH_ERRORS } from './catalogue.js';

const SRC = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/**
 * UPPER_SNAKE literals in the gateway's source that are not gateway error codes: reasons and
 * outcomes other services decide (the gateway branches on them or forwards them), values it
 * sends, and Fastify's own error codes. A new literal must be added here or to the catalogue,
 * so an inline error code cannot slip in unnoticed.
 */
const NOT_GATEWAY_CODES = new Set([
  // Identity's, adoption's and entitlements' reasons the gateway maps (map-error.ts) or branches on.
  'INVALID_CREDENTIALS',
  'CLIENT_AUTH_FAILED',
  'SCOPE_NOT_GRANTED',
  'SCOPE_MISSING',
  'SSO_EMAIL_UNVERIFIED',
  'MILESTONE_DEPENDENCIES_UNMET',
  'MILESTONE_NOT_APPLICABLE',
  'INVALID_HISTORY_QUERY',
  'PENDING_APPROVAL',
  'LINK_CONFIRMATION',
  // Identity's seat refusal, given the MAX_USERS upgrade context (routes/seat-limit.ts).
  'LIMIT_EXCEEDED',
  'MAX_USERS',
  'SIGNED_IN', // the outcome of an accepted invitation (TEAM-API.md), not an error
  // Values sent to or shown from the services, and the fallbacks of a reason-less remote error.
  'API_ACCESS',
  'EXPECTED_DATA_SETS', // the upgrade-context example capability (openapi/request-examples.ts)
  'BULK_UPLOAD',
  // The keys with a usage history (routes/usage-history-schemas.ts).
  'MAX_ACTIVE_PRODUCTS',
  'MAX_CONNECTIONS',
  'MAX_USERS',
  'MAX_TRACED_PRODUCTS',
  'BULK_UPLOAD_ROWS_MONTH',
  'API_REQUESTS_DAY',
  'UNAUTHENTICATED',
  // The route table's build-time refusals (a programming error, never an HTTP answer).
  'ROUTE_WITHOUT_REQUIREMENT',
  'ROUTE_REQUIREMENT_OUTSIDE_TABLE',
  'CALLER_NOT_AUTHENTICATED',
  // Configuration: the variable a bad SSO setting is reported against.
  'SSO_PROVIDERS',
]);

/** The code of a file without its block and line comments (which may describe a body's shape). */
const withoutComments = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');

const BODY_OWNERS = new Set([
  join('http', 'errors', 'catalogue.ts'),
  join('http', 'errors', 'send-http-error.ts'),
]);

describe('the gateway error catalogue', () => {
  it.each(Object.entries(GATEWAY_ERRORS))(
    '%s has an UPPER_SNAKE code, a 4xx/5xx status and a message',
    (code, e) => {
      expect(code).toMatch(/^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$/);
      expect(Number.isInteger(e.status) && e.status >= 400 && e.status <= 599).toBe(true);
      expect(e.message.trim()).not.toBe('');
    },
  );

  it.each(Object.entries(OAUTH_ERRORS))(
    '%s is an RFC 6749/6750 lower_snake code with a status and a message',
    (code, e) => {
      expect(code).toMatch(/^[a-z]+(_[a-z]+)+$/);
      expect(Number.isInteger(e.status) && e.status >= 400 && e.status <= 599).toBe(true);
      expect(e.message.trim()).not.toBe('');
    },
  );

  it('lists every error code written in the source (no inline codes)', () => {
    const unknown: string[] = [];
    for (const file of sourceFiles(SRC)) {
      if (file.endsWith(join('errors', 'catalogue.ts'))) continue;
      const text = readFileSync(file, 'utf8');
      for (const [, literal] of text.matchAll(/'([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)'/g)) {
        if (literal!.startsWith('FST_')) continue;
        if (!(literal! in GATEWAY_ERRORS) && !NOT_GATEWAY_CODES.has(literal!))
          unknown.push(`${relative(SRC, file)}: ${literal}`);
      }
      for (const [, literal] of text.matchAll(/oauthError\(\s*'([a-z_]+)'/g)) {
        if (!(literal! in OAUTH_ERRORS)) unknown.push(`${relative(SRC, file)}: ${literal}`);
      }
    }
    expect(unknown).toEqual([]);
  });

  it('builds error bodies in one place: no other file writes `success: false` or a status-and-send pair', () => {
    const elsewhere: string[] = [];
    for (const file of sourceFiles(SRC)) {
      const name = relative(SRC, file);
      // The catalogue builds the bodies, send-http-error.ts sends them; the document only describes them.
      if (name.startsWith(join('http', 'openapi')) || BODY_OWNERS.has(name)) continue;
      const text = withoutComments(readFileSync(file, 'utf8'));
      if (/success: false,\s*error: \{/.test(text)) elsewhere.push(`${name}: builds an error body`);
      if (/Object\.entries\(\w+\.headers|\.status\(\w+\.status\)\.send\(/.test(text))
        elsewhere.push(`${name}: sends an error itself`);
    }
    expect(elsewhere).toEqual([]);
  });
});
