import { describe, expect, it } from '@jest/globals';
import { Metadata } from '@grpc/grpc-js';
import { PEER_SERVICE_METADATA } from '@tap/grpc-kit';
import { authErrors } from './errors.js';
import { operatorTokens, requireOperator } from './operator.js';

const CURRENT = 'current-operator-token-0123456789abcdef';
const PREVIOUS = 'previous-operator-token-0123456789abcdef';

/** Metadata as a handler sees it: the interceptor has stamped the peer's proven service. */
function presenting(authorization?: string, peer: string | null = 'operator'): Metadata {
  const metadata = new Metadata();
  if (authorization !== undefined) metadata.set('authorization', authorization);
  if (peer !== null) metadata.set(PEER_SERVICE_METADATA, peer);
  return metadata;
}

function codeOf(check: () => void): string {
  try {
    check();
    return 'OK';
  } catch (error) {
    return authErrors.is(error) ? error.code : String(error);
  }
}

describe('the operator credential', () => {
  it("refuses the right token unless the peer certificate is the operator's", () => {
    expect(codeOf(() => requireOperator(presenting(`Operator ${CURRENT}`, 'gateway'), CURRENT))).toBe(
      'OPERATOR_ONLY',
    );
    expect(codeOf(() => requireOperator(presenting(`Operator ${CURRENT}`, null), CURRENT))).toBe(
      'OPERATOR_ONLY',
    );
    const twice = presenting(`Operator ${CURRENT}`, 'operator');
    twice.add(PEER_SERVICE_METADATA, 'operator');
    expect(codeOf(() => requireOperator(twice, CURRENT))).toBe('OPERATOR_ONLY');
  });

  it('accepts the current token', () => {
    expect(codeOf(() => requireOperator(presenting(`Operator ${CURRENT}`), CURRENT))).toBe('OK');
    expect(codeOf(() => requireOperator(presenting(`Operator ${CURRENT}`), operatorTokens(CURRENT)))).toBe(
      'OK',
    );
  });

  it('accepts the previous token alongside the current one during a rotation, and no third value', () => {
    const accepted = operatorTokens(CURRENT, PREVIOUS);
    expect(accepted).toEqual([CURRENT, PREVIOUS]);
    expect(codeOf(() => requireOperator(presenting(`Operator ${CURRENT}`), accepted))).toBe('OK');
    expect(codeOf(() => requireOperator(presenting(`Operator ${PREVIOUS}`), accepted))).toBe('OK');
    expect(codeOf(() => requireOperator(presenting(`Operator third-${CURRENT}`), accepted))).toBe(
      'OPERATOR_ONLY',
    );
  });

  it('refuses the previous token once it is no longer configured', () => {
    expect(codeOf(() => requireOperator(presenting(`Operator ${PREVIOUS}`), operatorTokens(CURRENT)))).toBe(
      'OPERATOR_ONLY',
    );
  });

  it('refuses a missing header, another scheme, an empty token and an empty list', () => {
    const accepted = operatorTokens(CURRENT, PREVIOUS);
    expect(codeOf(() => requireOperator(presenting(), accepted))).toBe('OPERATOR_ONLY');
    expect(codeOf(() => requireOperator(presenting(`Bearer ${CURRENT}`), accepted))).toBe('OPERATOR_ONLY');
    expect(codeOf(() => requireOperator(presenting('Operator '), accepted))).toBe('OPERATOR_ONLY');
    expect(codeOf(() => requireOperator(presenting(`Operator ${CURRENT}`), []))).toBe('OPERATOR_ONLY');
  });
});
