import { MAX_RETURN_TO_LENGTH } from '../browser/return-to.js';

/*
 * What the SSO routes read, for the OpenAPI document. The routes register them with
 * `attachValidation`: the handlers judge every value themselves and fail the flow with a 302 to
 * the app's error page, never a JSON 400 (spec: "Both SSO endpoints answer 302, not JSON").
 * So the schemas carry no bound the answer does not follow: any value is answered 302 (only the
 * router refuses a path parameter over its 100 characters, in JSON), and the handlers' rules are
 * written in each description. They stay plain JSON Schema, unlike the other routes' TypeBox: a
 * value that breaks a rule still reaches the handler.
 */

/** A provider key as `SSO_PROVIDERS` allows it; any other value is `reason=unknown_provider`. */
export const PROVIDER_KEY_PATTERN = '^[a-z0-9][a-z0-9-]{0,31}$';
/** The longest `state` the callback looks up (a state we issue is 43 characters). */
export const MAX_STATE_LENGTH = 256;
/** The longest callback query value (what the provider sends back is caller input too). */
export const MAX_CALLBACK_VALUE_LENGTH = 2_048;
/** At most this many callback query parameters (code, state, iss, error, …). */
export const MAX_CALLBACK_PARAMETERS = 8;
/** Fastify's maxParamLength: a longer path parameter is the router's 400, not a redirect. */
const MAX_PATH_PARAMETER_LENGTH = 100;

const providerParams = (keys: readonly string[]) => ({
  type: 'object',
  required: ['provider'],
  properties: {
    provider: {
      type: 'string',
      maxLength: MAX_PATH_PARAMETER_LENGTH,
      description: `A configured provider key (${PROVIDER_KEY_PATTERN}); any other is \`reason=unknown_provider\``,
      ...(keys.length > 0 ? { examples: [...keys] } : {}),
    },
  },
});

const callbackValue = (description: string, maxLength = MAX_CALLBACK_VALUE_LENGTH) => ({
  type: 'string',
  description: `${description}; printable ASCII, at most ${maxLength} characters, else the flow fails (302 to the error page)`,
});

/** `GET /auth/v2/sso/{provider}/start?returnTo=/path`. */
export const ssoStartSchema = (keys: readonly string[]) => ({
  params: providerParams(keys),
  querystring: {
    type: 'object',
    properties: {
      returnTo: {
        type: 'string',
        description: `A path on the web app (default \`/\`), at most ${MAX_RETURN_TO_LENGTH} characters, judged before and after normalisation; anything else is \`reason=invalid_return_to\``,
        examples: ['/dashboard'],
      },
    },
  },
});

/** `GET /auth/v2/sso/{provider}/callback?code=…&state=…` (RFC 6749 §4.1.2, RFC 9207 `iss`). */
export const ssoCallbackSchema = (keys: readonly string[]) => ({
  params: providerParams(keys),
  querystring: {
    type: 'object',
    description: `At most ${MAX_CALLBACK_PARAMETERS} parameters, else \`reason=invalid_callback\``,
    properties: {
      code: callbackValue('The authorization code'),
      state: callbackValue('The state the start issued (and set in the svc_sso cookie)', MAX_STATE_LENGTH),
      iss: callbackValue("The provider's issuer identifier"),
      error: callbackValue('The provider refused (access_denied, …)'),
      error_description: callbackValue("The provider's explanation"),
    },
  },
});
