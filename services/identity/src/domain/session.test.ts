import { describe, expect, it } from '@jest/globals';
import { formatRefreshToken, parseRefreshToken } from './refresh-token.js';
import {
  classifyPresentation,
  currentChildIndex,
  MAX_ADDRESS_LENGTH,
  MAX_USER_AGENT_LENGTH,
  sessionClient,
  type Session,
} from './session.js';

const at = new Date('2026-11-21T12:00:00Z');
const policy = { reuseGraceMs: 30_000, maxGraceUses: 3 };
const equal = (a: string, b: string) => a === b;
const session: Session = {
  id: 's',
  tenantId: 't',
  userId: 'u',
  channel: 'bearer',
  createdAt: at,
  currentHash: 'child',
  currentExpiresAt: new Date(at.getTime() + 1_000),
  previousHash: 'parent',
  rotatedAt: at,
  graceUses: 0,
  revokedAt: null,
  revokedReason: null,
};
const later = (ms: number) => new Date(at.getTime() + ms);

describe('classifyPresentation', () => {
  it('honours the immediate parent inside the window while its child is current', () => {
    expect(
      classifyPresentation(session, [{ hash: 'parent', childHash: 'child' }], later(30_000), policy, equal),
    ).toBe('GRACE');
  });

  it('calls it reuse after the window, after the grace uses, or once the child was exchanged', () => {
    expect(
      classifyPresentation(session, [{ hash: 'parent', childHash: 'child' }], later(30_001), policy, equal),
    ).toBe('REUSE');
    expect(
      classifyPresentation(
        { ...session, graceUses: 3 },
        [{ hash: 'parent', childHash: 'child' }],
        at,
        policy,
        equal,
      ),
    ).toBe('REUSE');
    expect(
      classifyPresentation(
        { ...session, currentHash: 'grandchild' },
        [{ hash: 'parent', childHash: 'child' }],
        at,
        policy,
        equal,
      ),
    ).toBe('REUSE');
    expect(classifyPresentation(session, [{ hash: 'ancestor', childHash: 'x' }], at, policy, equal)).toBe(
      'REUSE',
    );
  });

  it('reports a revoked family before anything else, and a current token that failed to rotate as expired', () => {
    expect(
      classifyPresentation(
        { ...session, revokedAt: at, revokedReason: 'logout' },
        [{ hash: 'parent', childHash: 'child' }],
        at,
        policy,
        equal,
      ),
    ).toBe('REVOKED');
    expect(classifyPresentation(session, [{ hash: 'child', childHash: 'x' }], at, policy, equal)).toBe(
      'EXPIRED',
    );
  });

  it('honours a parent stored under the previous secret whose child was derived under either secret', () => {
    const parentUnderPrevious = { ...session, previousHash: 'parent-a', currentHash: 'child-b' };
    const views = [
      { hash: 'parent-b', childHash: 'child-b' },
      { hash: 'parent-a', childHash: 'child-a' },
    ];
    expect(classifyPresentation(parentUnderPrevious, views, at, policy, equal)).toBe('GRACE');
    expect(currentChildIndex(parentUnderPrevious, views, equal)).toBe(0);
    const childUnderPrevious = { ...session, previousHash: 'parent-b', currentHash: 'child-a' };
    expect(classifyPresentation(childUnderPrevious, views, at, policy, equal)).toBe('GRACE');
    expect(currentChildIndex(childUnderPrevious, views, equal)).toBe(1);
    // Without the previous secret's view, a family last rotated under it is not recognised.
    expect(classifyPresentation(childUnderPrevious, views.slice(0, 1), at, policy, equal)).toBe('REUSE');
  });

  it('never honours a first token (no parent yet)', () => {
    const fresh = { ...session, previousHash: null, rotatedAt: null };
    expect(classifyPresentation(fresh, [{ hash: 'other', childHash: 'child' }], at, policy, equal)).toBe(
      'REUSE',
    );
  });
});

describe('refresh token format', () => {
  const sessionId = '2f1c7a52-8d0e-4c3b-9f6a-0b1c2d3e4f50';
  const secret = 'A'.repeat(43);

  it('round-trips and refuses anything else', () => {
    expect(parseRefreshToken(formatRefreshToken({ sessionId, secret }))).toEqual({ sessionId, secret });
    for (const bad of [
      '',
      'nodot',
      `${sessionId}.short`,
      `not-a-uuid.${secret}`,
      `${sessionId}.${secret}.extra`,
      `${sessionId.toUpperCase()}.${secret}`,
    ]) {
      expect(parseRefreshToken(bad)).toBeUndefined();
    }
  });
});

describe('sessionClient', () => {
  it('drops control characters and cuts each field by code point to its bound', () => {
    const client = sessionClient({
      userAgent: `Agent\u0000\r\n/1 ${'😀'.repeat(600)}`,
      address: ` ${'1'.repeat(100)}`,
    });
    expect(client.userAgent.startsWith('Agent/1 😀')).toBe(true);
    expect([...client.userAgent]).toHaveLength(MAX_USER_AGENT_LENGTH);
    expect([...client.userAgent].every((char) => char >= ' ')).toBe(true);
    expect(client.address).toHaveLength(MAX_ADDRESS_LENGTH);
    expect(sessionClient(undefined)).toEqual({ userAgent: '', address: '' });
  });
});
