import { OAuthRequestError } from '../errors/oauth-request-error.js';

/** The one grant type of the spec's token endpoint. */
export const CLIENT_CREDENTIALS = 'client_credentials';
/** Far above any real client id or secret; a longer value is a malformed request. */
const MAX_PARAMETER_LENGTH = 1_000;

/**
 * Edge shapes of the credentials (identity checks the same: CREDENTIAL_MALFORMED). Client ids
 * are UUIDs (RFC 3986 unreserved characters allowed), secrets printable ASCII, scopes RFC 6749
 * §3.3 tokens separated by spaces. Out of shape is `400 invalid_request`, never a lookup.
 */
const CLIENT_ID = /^[A-Za-z0-9._~-]{1,128}$/;
const CLIENT_SECRET = /^[\x21-\x7e]{1,256}$/;
const SCOPE = /^[\x21\x23-\x5b\x5d-\x7e ]{0,1000}$/;

/** A form body with a null prototype: parameter names such as `__proto__` stay plain data. */
export type FormParameters = Readonly<Record<string, string>>;

/** A well-formed client credentials grant request. */
export interface ClientCredentialsRequest {
  readonly clientId: string;
  readonly clientSecret: string;
  readonly scope: string;
  /** The credentials came in `Authorization: Basic` (RFC 6749 §2.3.1), not in the body. */
  readonly viaBasic: boolean;
}

const invalidRequest = (description: string) => new OAuthRequestError('invalid_request', description);

/**
 * Parses `application/x-www-form-urlencoded`. RFC 6749 §3.2: a parameter sent more than once
 * makes the request invalid (it could smuggle a second value past a check).
 */
export function parseForm(body: string): FormParameters {
  const form: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const [name, value] of new URLSearchParams(body)) {
    if (Object.hasOwn(form, name)) throw invalidRequest(`The parameter ${name.slice(0, 40)} is repeated`);
    form[name] = value;
  }
  return form;
}

/**
 * Reads a token request: `grant_type` first (missing is invalid_request, any other value
 * unsupported_grant_type), then the client's credentials from the body or from HTTP Basic,
 * never both (RFC 6749 §2.3: one authentication method per request).
 */
export function parseTokenRequest(
  form: FormParameters | undefined,
  authorization: string | undefined,
): ClientCredentialsRequest {
  const parameters = form ?? {};
  for (const [name, value] of Object.entries(parameters)) {
    if (value.length > MAX_PARAMETER_LENGTH)
      throw invalidRequest(`The parameter ${name.slice(0, 40)} is too long`);
  }
  const grantType = parameters['grant_type'];
  if (!grantType) throw invalidRequest('grant_type is required');
  if (grantType !== CLIENT_CREDENTIALS) {
    throw new OAuthRequestError(
      'unsupported_grant_type',
      `Only the ${CLIENT_CREDENTIALS} grant is supported`,
    );
  }
  const basic = authorization === undefined ? undefined : parseBasic(authorization);
  if (basic && parameters['client_secret'] !== undefined)
    throw invalidRequest('Send the client credentials once: in the body or in Authorization, not both');
  if (basic && parameters['client_id'] !== undefined && parameters['client_id'] !== basic.clientId)
    throw invalidRequest('client_id differs from the Authorization header');
  const clientId = basic?.clientId ?? parameters['client_id'];
  const clientSecret = basic?.clientSecret ?? parameters['client_secret'];
  if (!clientId) throw invalidRequest('client_id is required');
  if (!clientSecret) throw invalidRequest('client_secret is required');
  const scope = parameters['scope'] ?? '';
  if (!CLIENT_ID.test(clientId)) throw invalidRequest('client_id is malformed');
  if (!CLIENT_SECRET.test(clientSecret)) throw invalidRequest('client_secret is malformed');
  if (!SCOPE.test(scope)) throw invalidRequest('scope is malformed');
  return { clientId, clientSecret, scope, viaBasic: basic !== undefined };
}

/** `Basic base64(urlencode(id):urlencode(secret))`; undefined for another scheme. */
function parseBasic(header: string): { clientId: string; clientSecret: string } | undefined {
  const match = /^Basic ([A-Za-z0-9+/]+=*)$/i.exec(header.trim());
  if (!match) {
    if (/^Basic\b/i.test(header)) throw invalidRequest('The Basic credentials are malformed');
    return undefined;
  }
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) throw invalidRequest('The Basic credentials are malformed');
  try {
    return {
      clientId: decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, ' ')),
      clientSecret: decodeURIComponent(decoded.slice(colon + 1).replace(/\+/g, ' ')),
    };
  } catch {
    throw invalidRequest('The Basic credentials are malformed');
  }
}
