import { describe, expect, it } from '@jest/globals';
import { MAX_RETURN_TO_LENGTH, returnToLocation, safeReturnTo } from './return-to.js';

const APP = 'https://app.example';

/** Where a browser would end up if the callback redirected to `returnTo` on APP. */
const landing = (returnTo: string) => new URL(new URL(returnTo, APP).toString());

describe('safeReturnTo', () => {
  it('keeps same-site paths, defaults to /', () => {
    expect(safeReturnTo(undefined, APP)).toBe('/');
    expect(safeReturnTo('', APP)).toBe('/');
    expect(safeReturnTo('/dashboard?tab=1#x', APP)).toBe('/dashboard?tab=1#x');
    expect(safeReturnTo('/reports?next=%2Fa%2Fb', APP)).toBe('/reports?next=%2Fa%2Fb');
    expect(safeReturnTo('/caf%C3%A9', APP)).toBe('/caf%C3%A9');
  });

  it('judges the value after normalisation: harmless dot segments collapse on the app', () => {
    expect(safeReturnTo('/a/../b', APP)).toBe('/b');
    expect(safeReturnTo('/a/./b/', APP)).toBe('/a/b/');
  });

  // Each of these, resolved by a browser or a server in front of the app, leaves APP_URL's
  // origin (or runs script); all must be refused before anything is stored.
  const hostile: readonly unknown[] = [
    '//evil.example',
    '///evil.example',
    '////evil.example',
    '/\\evil.example',
    '\\\\evil.example',
    '\\/evil.example',
    '/.//evil.example',
    '/./\\evil.example',
    '/a/..//evil.example',
    '/a/b/../..//evil.example',
    '/..//evil.example',
    '/%2e%2e//evil.example',
    '/%2E%2E//evil.example',
    '/.%2e//evil.example',
    '/%2e//evil.example',
    '/%2f/evil.example',
    '/%2F%2Fevil.example',
    '/%5c/evil.example',
    '/%5Cevil.example',
    '/%252f%252fevil.example',
    '/\t/evil.example',
    '/\n/evil.example',
    '/\r\n/evil.example',
    '/a\nb',
    '/ /evil.example',
    '/%09/evil.example',
    '/%00/evil.example',
    '/\u0000/evil.example',
    '/\uff0f\uff0fevil.example',
    '/\u2215\u2215evil.example',
    '/\u3002evil.example',
    '/\u00a0/evil.example',
    'javascript:alert(1)',
    'JaVaScRiPt:alert(1)',
    '/javascript:alert(1)//\u2028',
    'data:text/html,<script>alert(1)</script>',
    'https://evil.example',
    'http://evil.example/dashboard',
    'https://app.example.evil.example/',
    'https://app.example@evil.example/',
    '//app.example@evil.example',
    'evil.example',
    'evil',
    '.',
    '?x=1',
    '#frag',
    `/${'a'.repeat(MAX_RETURN_TO_LENGTH)}`,
    42,
    ['/dashboard'],
    { toString: () => '/dashboard' },
    null,
  ];

  it(`refuses at least 30 hostile values (${hostile.length} here)`, () => {
    expect(hostile.length).toBeGreaterThanOrEqual(30);
  });

  const label = (value: unknown) => JSON.stringify(value)?.slice(0, 60) ?? String(value);
  it.each(hostile.map((value) => [label(value), value]))('refuses %s', (_label, value) => {
    const safe = safeReturnTo(value, APP);
    if (safe !== undefined) {
      // Accepted only if it really stays: same origin, and a non-protocol-relative path.
      expect(landing(safe).origin).toBe(APP);
      expect(safe.startsWith('//')).toBe(false);
    }
    expect(safe).toBeUndefined();
  });

  it('every accepted value lands on the app origin', () => {
    for (const value of ['/x', '/a/../b', '/x?y=//evil.example', '/x#//evil.example', '/@x'])
      expect(landing(safeReturnTo(value, APP) ?? '/').origin).toBe(APP);
  });
});

describe('returnToLocation', () => {
  it('redirects to the app root when a stored value would leave the app', () => {
    expect(returnToLocation('/reports?x=1', APP)).toBe(`${APP}/reports?x=1`);
    expect(returnToLocation('//evil.example', APP)).toBe(`${APP}/`);
    expect(returnToLocation('/a/..//evil.example', APP)).toBe(`${APP}/`);
  });
});
