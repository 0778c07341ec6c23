import { describe, expect, it } from '@jest/globals';
import { parseCookies, serializeCookie } from './cookies.js';

describe('parseCookies', () => {
  it('reads pairs, trims, unquotes, keeps the first of duplicates and skips malformed ones', () => {
    const cookies = parseCookies(' a=1; b="two"; a=3; =x; c; d=has space; e=ok');
    expect([...cookies]).toEqual([
      ['a', '1'],
      ['b', 'two'],
      ['e', 'ok'],
    ]);
  });

  it('is empty without a header', () => {
    expect(parseCookies(undefined).size).toBe(0);
  });
});

describe('serializeCookie', () => {
  it('writes Path, Max-Age, Domain, HttpOnly, Secure and SameSite', () => {
    expect(
      serializeCookie('svc_session', 'abc.def', {
        httpOnly: true,
        sameSite: 'Lax',
        path: '/',
        maxAge: 900,
        domain: 'example.com',
      }),
    ).toBe('svc_session=abc.def; Path=/; Max-Age=900; Domain=example.com; HttpOnly; Secure; SameSite=Lax');
  });

  it('deletes with Max-Age=0 and a past Expires', () => {
    expect(serializeCookie('svc_csrf', '', { httpOnly: false, sameSite: 'Lax', path: '/', maxAge: 0 })).toBe(
      'svc_csrf=; Path=/; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Secure; SameSite=Lax',
    );
  });

  it('refuses values that would need encoding (no header injection)', () => {
    expect(() =>
      serializeCookie('a', 'x; Domain=evil', { httpOnly: true, sameSite: 'Strict', path: '/', maxAge: 1 }),
    ).toThrow();
  });
});
