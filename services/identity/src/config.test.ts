import { describe, expect, it } from '@jest/globals';
import { ConfigError } from '@tap/config';
import { deriveTokenHashSecret } from '@tap/tokens';
import { loadConfig } from './config.js';

const OLD_SECRET = 'old-key-encryption-secret-0123456789abcdef';
const NEW_SECRET = 'new-key-encryption-secret-0123456789abcdef';
const REQUIRED = {
  GRPC_TLS_CERT_FILE: '/tls/tls.crt',
  GRPC_TLS_KEY_FILE: '/tls/tls.key',
  GRPC_TLS_CA_FILE: '/tls/ca.crt',
  MONGO_URL: 'mongodb://127.0.0.1:27017/',
  KEY_ENCRYPTION_SECRET: OLD_SECRET,
  OPERATOR_TOKEN: 'o'.repeat(32),
};

function issuesOf(env: Record<string, string>): readonly { variable: string; problem: string }[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.issues;
    throw error;
  }
  return [];
}

describe('loadConfig', () => {
  it('needs no previous secrets outside a rotation', () => {
    const config = loadConfig(REQUIRED);
    expect(config.tokens.keyEncryptionSecretPrevious).toBeUndefined();
    expect(config.operatorTokenPrevious).toBeUndefined();
    expect(config.tokenHashSecret).toBeUndefined();
    expect(config.tokenHashSecretPrevious).toBeUndefined();
  });

  it('takes a previous token-hash secret next to an explicit TOKEN_HASH_SECRET', () => {
    const config = loadConfig({
      ...REQUIRED,
      TOKEN_HASH_SECRET: 'n'.repeat(32),
      TOKEN_HASH_SECRET_PREVIOUS: 'p'.repeat(32),
    });
    expect(config.tokenHashSecret).toBe('n'.repeat(32));
    expect(config.tokenHashSecretPrevious).toBe('p'.repeat(32));
  });

  it('refuses a previous token-hash secret while TOKEN_HASH_SECRET is derived, in one line that names no secret', () => {
    const previous = deriveTokenHashSecret(OLD_SECRET);
    const issues = issuesOf({ ...REQUIRED, TOKEN_HASH_SECRET_PREVIOUS: previous });
    expect(issues.map((issue) => issue.variable)).toEqual(['TOKEN_HASH_SECRET_PREVIOUS']);
    expect(issues[0]!.problem).toMatch(/TOKEN_HASH_SECRET is not/);
    expect(JSON.stringify(issues)).not.toContain(previous);
  });

  it('lists both problems at once when both previous secrets are set and TOKEN_HASH_SECRET is not', () => {
    const issues = issuesOf({
      ...REQUIRED,
      KEY_ENCRYPTION_SECRET: NEW_SECRET,
      KEY_ENCRYPTION_SECRET_PREVIOUS: OLD_SECRET,
      TOKEN_HASH_SECRET_PREVIOUS: deriveTokenHashSecret(OLD_SECRET),
    });
    expect(issues.map((issue) => issue.variable).sort()).toEqual([
      'TOKEN_HASH_SECRET',
      'TOKEN_HASH_SECRET_PREVIOUS',
    ]);
  });

  it('accepts both rotations at once: key-encryption secret and token-hash secret each with its previous value', () => {
    const config = loadConfig({
      ...REQUIRED,
      KEY_ENCRYPTION_SECRET: NEW_SECRET,
      KEY_ENCRYPTION_SECRET_PREVIOUS: OLD_SECRET,
      TOKEN_HASH_SECRET: 'n'.repeat(32),
      TOKEN_HASH_SECRET_PREVIOUS: deriveTokenHashSecret(OLD_SECRET),
    });
    expect(config.tokenHashSecretPrevious).toBe(deriveTokenHashSecret(OLD_SECRET));
  });

  it('takes the previous key-encryption secret once TOKEN_HASH_SECRET is pinned', () => {
    const pinned = deriveTokenHashSecret(OLD_SECRET);
    const config = loadConfig({
      ...REQUIRED,
      KEY_ENCRYPTION_SECRET: NEW_SECRET,
      KEY_ENCRYPTION_SECRET_PREVIOUS: OLD_SECRET,
      TOKEN_HASH_SECRET: pinned,
    });
    expect(config.tokens).toMatchObject({
      keyEncryptionSecret: NEW_SECRET,
      keyEncryptionSecretPrevious: OLD_SECRET,
    });
    expect(config.tokenHashSecret).toBe(pinned);
  });

  it('refuses a previous key-encryption secret while TOKEN_HASH_SECRET is derived, in one line that names no secret', () => {
    const issues = issuesOf({
      ...REQUIRED,
      KEY_ENCRYPTION_SECRET: NEW_SECRET,
      KEY_ENCRYPTION_SECRET_PREVIOUS: OLD_SECRET,
    });
    expect(issues).toHaveLength(1);
    expect(issues[0]!.variable).toBe('TOKEN_HASH_SECRET');
    expect(issues[0]!.problem).toMatch(
      /KEY_ENCRYPTION_SECRET_PREVIOUS is set.*pin it first.*tap token-hash-secret/,
    );
    expect(JSON.stringify(issues)).not.toContain(OLD_SECRET);
    expect(JSON.stringify(issues)).not.toContain(NEW_SECRET);
  });

  it('refuses a TOKEN_HASH_SECRET pinned to the value derived from the new secret instead of the old one', () => {
    const issues = issuesOf({
      ...REQUIRED,
      KEY_ENCRYPTION_SECRET: NEW_SECRET,
      KEY_ENCRYPTION_SECRET_PREVIOUS: OLD_SECRET,
      TOKEN_HASH_SECRET: deriveTokenHashSecret(NEW_SECRET),
    });
    expect(issues.map((issue) => issue.variable)).toEqual(['TOKEN_HASH_SECRET']);
    expect(JSON.stringify(issues)).not.toContain(deriveTokenHashSecret(NEW_SECRET));
  });

  it('holds the previous values to the same minimum length as the current ones', () => {
    const issues = issuesOf({
      ...REQUIRED,
      KEY_ENCRYPTION_SECRET_PREVIOUS: 'short',
      OPERATOR_TOKEN_PREVIOUS: 'p'.repeat(31),
      TOKEN_HASH_SECRET: 't'.repeat(32),
      TOKEN_HASH_SECRET_PREVIOUS: 'p'.repeat(31),
    });
    expect(issues.map((issue) => issue.variable).sort()).toEqual([
      'KEY_ENCRYPTION_SECRET_PREVIOUS',
      'OPERATOR_TOKEN_PREVIOUS',
      'TOKEN_HASH_SECRET_PREVIOUS',
    ]);
    expect(loadConfig({ ...REQUIRED, OPERATOR_TOKEN_PREVIOUS: 'p'.repeat(32) }).operatorTokenPrevious).toBe(
      'p'.repeat(32),
    );
  });
});
