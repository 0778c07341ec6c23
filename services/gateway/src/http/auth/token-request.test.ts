import { describe, expect, it } from '@jest/globals';
import { OAuthRequestError } from '../errors/oauth-request-error.js';
import { parseForm, parseTokenRequest } from './token-request.js';

const basic = (id: string, secret: string) =>
  `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;

function refusal(run: () => unknown): { status: number; error: string } {
  try {
    run();
  } catch (error) {
    if (error instanceof OAuthRequestError) return { status: error.status, error: error.error };
    throw error;
  }
  throw new Error('accepted');
}

describe('token requests', () => {
  const form = (body: string) => parseForm(body);

  it('reads client credentials from the body or from Basic', () => {
    expect(
      parseTokenRequest(
        form(
          'grant_type=client_credentials&client_id=c1&client_secret=s%2B1&scope=dpp%3Aread+products%3Aread',
        ),
        undefined,
      ),
    ).toEqual({
      clientId: 'c1',
      clientSecret: 's+1',
      scope: 'dpp:read products:read',
      viaBasic: false,
    });
    expect(parseTokenRequest(form('grant_type=client_credentials'), basic('c.1~', 's:1/'))).toEqual({
      clientId: 'c.1~',
      clientSecret: 's:1/',
      scope: '',
      viaBasic: true,
    });
  });

  it('refuses a missing or unknown grant type, missing credentials and two methods at once', () => {
    expect(refusal(() => parseTokenRequest(undefined, undefined))).toEqual({
      status: 400,
      error: 'invalid_request',
    });
    expect(refusal(() => parseTokenRequest(form('grant_type=password&username=a'), undefined))).toEqual({
      status: 400,
      error: 'unsupported_grant_type',
    });
    expect(
      refusal(() => parseTokenRequest(form('grant_type=client_credentials&client_secret=s'), undefined)),
    ).toEqual({ status: 400, error: 'invalid_request' });
    expect(
      refusal(() => parseTokenRequest(form('grant_type=client_credentials&client_id=c'), undefined)),
    ).toEqual({ status: 400, error: 'invalid_request' });
    expect(
      refusal(() =>
        parseTokenRequest(form('grant_type=client_credentials&client_secret=s'), basic('c', 's')),
      ),
    ).toEqual({ status: 400, error: 'invalid_request' });
    expect(
      refusal(() =>
        parseTokenRequest(form('grant_type=client_credentials&client_id=other'), basic('c', 's')),
      ),
    ).toEqual({ status: 400, error: 'invalid_request' });
    expect(refusal(() => parseTokenRequest(form('grant_type=client_credentials'), 'Basic !!!'))).toEqual({
      status: 400,
      error: 'invalid_request',
    });
    expect(
      refusal(() =>
        parseTokenRequest(
          form(`grant_type=client_credentials&client_id=c&client_secret=${'s'.repeat(1_001)}`),
          undefined,
        ),
      ),
    ).toEqual({ status: 400, error: 'invalid_request' });
  });

  it('refuses a repeated parameter and keeps odd names as plain data', () => {
    expect(refusal(() => form('grant_type=client_credentials&grant_type=client_credentials'))).toEqual({
      status: 400,
      error: 'invalid_request',
    });
    const parsed = form('__proto__=x&constructor=y');
    expect(Object.getPrototypeOf(parsed)).toBeNull();
    expect(parsed['__proto__']).toBe('x');
  });

  it('ignores a Bearer header (it is not client authentication)', () => {
    expect(
      parseTokenRequest(form('grant_type=client_credentials&client_id=c&client_secret=s'), 'Bearer abc')
        .viaBasic,
    ).toBe(false);
  });

  it('refuses out-of-shape credentials as 400 invalid_request, in the body or in Basic (issue #11)', () => {
    const long = 'c'.repeat(600);
    const grant = (fields: string, authorization?: string) => () =>
      parseTokenRequest(form(`grant_type=client_credentials&${fields}`), authorization);
    for (const run of [
      grant(`client_id=${long}&client_secret=s`),
      grant('client_secret=s', undefined),
      grant('', basic(long, 's')),
      grant('client_id=a%20b&client_secret=s'),
      grant('client_id=a%00b&client_secret=s'),
      grant('client_id=%E2%80%AEab&client_secret=s'),
      grant('client_id=c1&client_secret=s%0A'),
      grant(`client_id=c1&client_secret=${'s'.repeat(257)}`),
      grant('client_id=c1&client_secret=s&scope=dpp%3Aread%0A'),
      grant('client_id=c1&client_secret=s&scope=%22x%22'),
    ]) {
      expect(refusal(run)).toEqual({ status: 400, error: 'invalid_request' });
    }
  });
});
