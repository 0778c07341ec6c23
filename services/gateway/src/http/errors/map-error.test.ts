import { describe, expect, it } from '@jest/globals';
import {
  DependencyUnavailableError,
  ERROR_CODE_KEY,
  errorMetadata,
  GrpcStatus as status,
  localCallError,
  RemoteCallError,
} from '@tap/grpc-kit';
import { toHttpError, toOAuthHttpError } from './map-error.js';
import { OAuthRequestError } from './oauth-request-error.js';

/** A failed call as grpc-js reports it, with identity's reason in the trailing metadata. */
function remote(code: status, reason: string, message = 'm'): RemoteCallError {
  const metadata = { get: (key: string) => (key === ERROR_CODE_KEY ? [reason] : []) };
  return new RemoteCallError(
    Object.assign(new Error(message), {
      code,
      details: message,
      metadata,
    }) as unknown as ConstructorParameters<typeof RemoteCallError>[0],
  );
}

describe('the OAuth-style mapping of the token endpoints', () => {
  it.each([
    ['INVALID_CREDENTIALS', status.UNAUTHENTICATED, 401, 'invalid_client'],
    ['CLIENT_AUTH_FAILED', status.UNAUTHENTICATED, 401, 'invalid_client'],
    ['REFRESH_TOKEN_INVALID', status.UNAUTHENTICATED, 401, 'invalid_token'],
    ['SCOPE_NOT_GRANTED', status.INVALID_ARGUMENT, 400, 'invalid_scope'],
    ['EMAIL_INVALID', status.INVALID_ARGUMENT, 400, 'invalid_request'],
  ])('maps %s to %i %s', (reason, code, httpStatus, error) => {
    expect(toOAuthHttpError(remote(code, reason))).toMatchObject({
      status: httpStatus,
      body: { error, error_description: 'm' },
    });
  });

  it('answers body problems with 400 invalid_request and outages with 503 temporarily_unavailable', () => {
    expect(
      toOAuthHttpError(
        Object.assign(new Error('x'), { code: 'FST_ERR_CTP_INVALID_MEDIA_TYPE', statusCode: 415 }),
      ),
    ).toMatchObject({ status: 400, body: { error: 'invalid_request' } });
    expect(toOAuthHttpError(new SyntaxError('Unexpected token'))).toMatchObject({
      status: 400,
      body: { error: 'invalid_request' },
    });
    expect(toOAuthHttpError(remote(status.UNAVAILABLE, 'X'))).toMatchObject({
      status: 503,
      body: { error: 'temporarily_unavailable' },
      headers: { 'retry-after': '1' },
    });
    expect(toOAuthHttpError(new Error('boom'))).toMatchObject({
      status: 500,
      body: { error: 'server_error' },
    });
    expect(
      toOAuthHttpError(new OAuthRequestError('rate_limit_exceeded', 'slow down', { 'retry-after': '7' })),
    ).toEqual({
      status: 429,
      body: { error: 'rate_limit_exceeded', error_description: 'slow down' },
      headers: { 'retry-after': '7' },
    });
  });

  it('answers a revocation list that cannot be read with 503, never 500', () => {
    expect(toHttpError(new DependencyUnavailableError('redis'))).toMatchObject({
      status: 503,
      headers: { 'retry-after': '1' },
    });
  });
});

describe('details encoded by grpc-kit (non-ASCII escaped), decoded here', () => {
  const hostile = { action: 'BULK_ÜPLOAD 😀 \u0000\u007f\n"\\', count: 3, nested: { ok: true } };

  it('reach the HTTP body unchanged', () => {
    const error = new RemoteCallError(
      Object.assign(new Error('Unknown action.'), {
        code: status.INVALID_ARGUMENT,
        details: 'Unknown action.',
        metadata: errorMetadata('UNKNOWN_ACTION', hostile),
      }),
    );
    expect(toHttpError(error)).toEqual({
      status: 400,
      body: {
        success: false,
        error: { code: 'UNKNOWN_ACTION', message: 'Unknown action.', details: hostile },
      },
    });
  });

  it('answer a credential refused before sending as 401 invalid_token', () => {
    expect(toHttpError(localCallError(status.UNAUTHENTICATED, 'the credential is malformed'))).toMatchObject({
      status: 401,
    });
  });
});

describe("the router's refusals", () => {
  it.each([
    ['FST_ERR_BAD_URL', 'INVALID_URL'],
    ['FST_ERR_MAX_PARAM_LENGTH', 'PATH_PARAMETER_TOO_LONG'],
  ])('answers %s with 400 %s in the general body', (code, answer) => {
    const statusCode = code === 'FST_ERR_BAD_URL' ? 400 : 414;
    expect(toHttpError(Object.assign(new Error('x'), { code, statusCode }))).toEqual({
      status: 400,
      body: { success: false, error: { code: answer, message: expect.any(String) } },
    });
  });
});
