import { createHash, timingSafeEqual } from 'node:crypto';
import type { Metadata } from '@grpc/grpc-js';
import { peerServiceOf } from '@tap/grpc-kit';
import { authErrors } from './errors.js';

const OPERATOR_SCHEME = /^Operator (.+)$/;

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

/**
 * The operator credentials a service accepts: OPERATOR_TOKEN and, while it is being rotated,
 * OPERATOR_TOKEN_PREVIOUS (when set).
 */
export function operatorTokens(current: string, previous?: string): readonly string[] {
  return previous === undefined ? [current] : [current, previous];
}

/** The service identity of the operator CLI's certificate (`sa/operator`). */
export const OPERATOR_SERVICE = 'operator';

/**
 * Checks the operator's two factors (docs/security.md §6): the peer certificate is the operator's
 * (as the allowlist interceptor proved it from the TLS handshake), and the operator credential
 * (`authorization: Operator <token>`) matches an accepted value (the current one and, during a
 * rotation, the previous one). The token is checked whatever the certificate, so a refusal says
 * nothing about which factor failed. Compared as SHA-256 digests in constant time, and always
 * against every value, so neither content, length nor which value matched leaks by timing.
 * Without the certificate the token is worth nothing: a gateway (or any service) that learnt it
 * still cannot act as the operator for another tenant.
 */
export function requireOperator(metadata: Metadata, accepted: string | readonly string[]): void {
  const header = metadata.get('authorization')[0];
  const presented = typeof header === 'string' ? OPERATOR_SCHEME.exec(header)?.[1] : undefined;
  const tokens = typeof accepted === 'string' ? [accepted] : accepted;
  const presentedDigest = digest(presented ?? '');
  let matched = false;
  for (const token of tokens) matched = timingSafeEqual(presentedDigest, digest(token)) || matched;
  const operatorPeer = peerServiceOf(metadata) === OPERATOR_SERVICE;
  if (!presented || !matched || !operatorPeer) throw authErrors.create('OPERATOR_ONLY');
}
