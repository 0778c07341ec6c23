import { timingSafeEqual, createHash } from 'node:crypto';
import { isRemoteCallError, unaryCall } from '@tap/grpc-kit';
import type { RateLimiter } from '@tap/ratelimit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { open } from '../auth/access.js';
import { sessionClientOf } from '../auth/session-client.js';
import * as oidc from 'openid-client';
import type { ServiceClients } from '../../clients.js';
import type { SsoStateStore } from '../../sso-states.js';
import { setCookie } from '../browser/cookies.js';
import { enforceAddressLimit } from '../auth/address-limits.js';
import { returnToLocation, safeReturnTo } from '../browser/return-to.js';
import { OAuthRequestError } from '../errors/oauth-request-error.js';
import { redirect } from '../openapi/responses.js';
import { registerRoutes, routesOf } from './define-route.js';
import { newCsrfToken, requestCookies, setSessionCookies } from '../browser/session-cookies.js';
import {
  MAX_CALLBACK_PARAMETERS,
  MAX_CALLBACK_VALUE_LENGTH,
  MAX_STATE_LENGTH,
  ssoCallbackSchema,
  ssoStartSchema,
} from './auth-v2-sso-schemas.js';

/** One configured OpenID Provider (docs/browser-sessions.md, SSO). */
export interface SsoProviderSettings {
  readonly key: string;
  readonly issuer: string;
  readonly clientId: string;
  readonly clientSecret: string;
}

export interface SsoOptions {
  readonly clients: ServiceClients;
  readonly states: SsoStateStore;
  /** Each start writes a state to Redis: limited per address and in total (auth/address-limits.ts). */
  readonly limiter: RateLimiter;
  readonly providers: readonly SsoProviderSettings[];
  /** The web app: where `returnTo` and the SSO result pages live. */
  readonly appUrl: string;
  /** The API's public base (…/api/v1): the redirect URI is `{publicApiUrl}/auth/v2/sso/{key}/callback`. */
  readonly publicApiUrl: string;
  readonly allowedOrigins: ReadonlySet<string>;
  readonly cookieDomain?: string | undefined;
}

/** State and nonce live 10 minutes, once (spec "Single sign-on"). */
export const SSO_STATE_TTL_MS = 10 * 60_000;
const SSO_COOKIE = 'svc_sso';
const SSO_COOKIE_PATH = '/api/v1/auth/v2/sso';
const PROVIDER_TIMEOUT_S = 5;

/** What the SSO routes share: the providers, their discovered configurations and the flow's helpers. */
export interface SsoContext {
  readonly options: SsoOptions;
  readonly providers: ReadonlyMap<string, SsoProviderSettings>;
  readonly keys: readonly string[];
  readonly configurationOf: (provider: SsoProviderSettings) => Promise<oidc.Configuration>;
  readonly appPage: (path: string) => string;
  readonly fail: (reply: FastifyReply, reason: string) => FastifyReply;
  readonly stateCookie: (reply: FastifyReply, value: string, maxAgeS: number) => void;
  readonly foreignOrigin: (request: FastifyRequest) => boolean;
  readonly redirectUri: (key: string) => string;
}

function ssoContext(options: SsoOptions): SsoContext {
  const providers = new Map(options.providers.map((p) => [p.key, p]));
  const discovered = new Map<string, Promise<oidc.Configuration>>();
  const configurationOf = (provider: SsoProviderSettings): Promise<oidc.Configuration> => {
    let found = discovered.get(provider.key);
    if (!found) {
      const issuer = new URL(provider.issuer);
      const loopback = issuer.hostname === '127.0.0.1' || issuer.hostname === 'localhost';
      found = oidc
        .discovery(issuer, provider.clientId, undefined, oidc.ClientSecretBasic(provider.clientSecret), {
          timeout: PROVIDER_TIMEOUT_S,
          // ID-token signatures are checked against the provider's JWKS too (openid-client skips
          // that for tokens from the token endpoint unless told). Plain HTTP only on loopback.
          execute: [
            oidc.enableNonRepudiationChecks,
            ...(issuer.protocol === 'http:' && loopback ? [oidc.allowInsecureRequests] : []),
          ],
        })
        .then((configuration) => {
          configuration.timeout = PROVIDER_TIMEOUT_S;
          return configuration;
        });
      found.catch(() => discovered.delete(provider.key));
      discovered.set(provider.key, found);
    }
    return found;
  };
  const issuerOrigins = new Set(options.providers.map((p) => new URL(p.issuer).origin));
  const appPage = (path: string) => new URL(path, options.appUrl).toString();
  const fail = (reply: FastifyReply, reason: string) =>
    reply.header('cache-control', 'no-store').redirect(appPage(`/auth/sso/error?reason=${reason}`), 302);
  const stateCookie = (reply: FastifyReply, value: string, maxAgeS: number) =>
    setCookie(reply, SSO_COOKIE, value, {
      httpOnly: true,
      sameSite: 'lax',
      path: SSO_COOKIE_PATH,
      maxAge: maxAgeS,
      domain: options.cookieDomain,
    });
  // A navigation carries no Origin; one that does must be ours or the provider's.
  const foreignOrigin = (request: FastifyRequest) => {
    const origin = request.headers.origin;
    return origin !== undefined && !options.allowedOrigins.has(origin) && !issuerOrigins.has(origin);
  };
  const redirectUri = (key: string) =>
    `${options.publicApiUrl}/auth/v2/sso/${encodeURIComponent(key)}/callback`;
  const keys = options.providers.map((p) => p.key);
  return {
    options,
    providers,
    keys,
    configurationOf,
    appPage,
    fail,
    stateCookie,
    foreignOrigin,
    redirectUri,
  };
}

const route = routesOf<SsoContext>();
/** Every failure is a 302 too; only the router's own refusals and a draining process answer JSON. */
const SSO_FAILURE =
  'every failure goes to `{APP_URL}/auth/sso/error?reason=<reason>` (docs/browser-sessions.md), ' +
  'over the per-address start limit `reason=rate_limited` with Retry-After';
const ACCESS_NONE = 'browser redirect';
type ProviderRequest<Q> = FastifyRequest<{ Params: { provider: string }; Querystring: Q }>;

/**
 * SSO: `GET /auth/v2/sso/{provider}/start` and `/callback`, OIDC authorization code with PKCE
 * (S256), state and nonce single-use in Redis (10 min) and bound to the browser by a cookie.
 * Always 302: to the provider, to `returnTo`, or to one of the app's SSO pages. The schemas
 * name the configured providers and document the bounds, with attachValidation: the handlers
 * judge every value and fail the flow with a 302 (auth-v2-sso-schemas.ts), so a schema miss is
 * never a JSON 400.
 */
export const SSO_ROUTES = [
  route('GET /auth/v2/sso/:provider/start', {
    access: open(`${ACCESS_NONE}; single-use state`),
    operation: {
      operationId: 'startSso',
      tag: 'auth-v2',
      summary: 'Start OIDC sign-in with a provider (302)',
      extraResponses: redirect(
        `To the provider's authorization endpoint (PKCE, state in the svc_sso cookie); ${SSO_FAILURE}`,
      ),
    },
    options: ({ keys }) => ({ schema: ssoStartSchema(keys), attachValidation: true }),
    handler: (context) => {
      const { options, providers, configurationOf, fail, stateCookie, foreignOrigin, redirectUri } = context;
      return async (untyped: FastifyRequest, reply: FastifyReply) => {
        const request = untyped as ProviderRequest<{ returnTo?: unknown }>;
        const provider = providers.get(request.params.provider);
        if (!provider) return fail(reply, 'unknown_provider');
        if (foreignOrigin(request)) return fail(reply, 'origin_not_allowed');
        const returnTo = safeReturnTo(request.query.returnTo, options.appUrl);
        if (!returnTo) return fail(reply, 'invalid_return_to');
        try {
          await enforceAddressLimit(options.limiter, 'ssoStart', request.ip, reply);
        } catch (error) {
          if (!(error instanceof OAuthRequestError)) throw error;
          void reply.header('retry-after', error.headers['retry-after'] ?? '60');
          return fail(reply, 'rate_limited');
        }
        let configuration: oidc.Configuration;
        try {
          configuration = await configurationOf(provider);
        } catch (error) {
          request.log.warn(
            { err: (error as Error).message, provider: provider.key },
            'OpenID Provider discovery failed',
          );
          return fail(reply, 'provider_unavailable');
        }
        const codeVerifier = oidc.randomPKCECodeVerifier();
        const state = oidc.randomState();
        const nonce = oidc.randomNonce();
        try {
          await options.states.put(
            state,
            { provider: provider.key, codeVerifier, nonce, returnTo },
            SSO_STATE_TTL_MS,
          );
        } catch {
          return fail(reply, 'unavailable');
        }
        const target = oidc.buildAuthorizationUrl(configuration, {
          redirect_uri: redirectUri(provider.key),
          scope: 'openid email profile',
          code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
          code_challenge_method: 'S256',
          state,
          nonce,
        });
        stateCookie(reply, state, SSO_STATE_TTL_MS / 1000);
        return reply.header('cache-control', 'no-store').redirect(target.toString(), 302);
      };
    },
  }),
  route('GET /auth/v2/sso/:provider/callback', {
    access: open(`${ACCESS_NONE}; state, PKCE and ID-token checks`),
    operation: {
      operationId: 'finishSso',
      tag: 'auth-v2',
      summary: 'The provider’s redirect back (302)',
      extraResponses: redirect(
        `To returnTo on the web app with the session cookies, to the app's confirm-email or pending-approval page; ${SSO_FAILURE}`,
      ),
    },
    options: ({ keys }) => ({ schema: ssoCallbackSchema(keys), attachValidation: true }),
    handler: (context) => {
      const { options, providers, configurationOf, appPage, fail, stateCookie, foreignOrigin, redirectUri } =
        context;
      return async (untyped: FastifyRequest, reply: FastifyReply) => {
        const request = untyped as ProviderRequest<Record<string, string | undefined>>;
        stateCookie(reply, '', 0);
        const provider = providers.get(request.params.provider);
        if (!provider) return fail(reply, 'unknown_provider');
        if (foreignOrigin(request)) return fail(reply, 'origin_not_allowed');
        // Bounded before anything reads them: what the provider sends back is caller input too.
        if (!callbackQueryInShape(request.query)) return fail(reply, 'invalid_callback');
        const stateParam = request.query['state'];
        if (typeof stateParam !== 'string' || !stateParam || stateParam.length > MAX_STATE_LENGTH)
          return fail(reply, 'invalid_state');
        let remembered;
        try {
          remembered = await options.states.take(stateParam);
        } catch {
          return fail(reply, 'unavailable');
        }
        if (!remembered || !sameValue(requestCookies(request).get(SSO_COOKIE), stateParam))
          return fail(reply, 'invalid_state');
        // The state was issued for another provider: a code from one provider is never sent to another.
        if (remembered.provider !== provider.key) return fail(reply, 'provider_mismatch');
        if (request.query['error']) return fail(reply, 'provider_refused');

        let claims: oidc.IDToken;
        try {
          const configuration = await configurationOf(provider);
          const current = new URL(redirectUri(provider.key));
          current.search = new URLSearchParams(
            Object.entries(request.query).filter((e): e is [string, string] => typeof e[1] === 'string'),
          ).toString();
          const tokens = await oidc.authorizationCodeGrant(configuration, current, {
            pkceCodeVerifier: remembered.codeVerifier,
            expectedState: stateParam,
            expectedNonce: remembered.nonce,
            idTokenExpected: true,
          });
          const verified = tokens.claims();
          if (!verified) return fail(reply, 'token_invalid');
          claims = verified;
        } catch (error) {
          request.log.info(
            { err: (error as Error).message, provider: provider.key },
            'SSO code exchange refused',
          );
          return fail(reply, 'token_invalid');
        }

        let result;
        try {
          result = await unaryCall(options.clients.identity, 'SsoSignIn', {
            provider: provider.key,
            subject: claims.sub,
            email: typeof claims['email'] === 'string' ? claims['email'] : '',
            emailVerified: claims['email_verified'] === true,
            givenName: typeof claims['given_name'] === 'string' ? claims['given_name'] : '',
            familyName: typeof claims['family_name'] === 'string' ? claims['family_name'] : '',
            client: sessionClientOf(request),
          });
        } catch (error) {
          if (isRemoteCallError(error) && error.reason === 'SSO_EMAIL_UNVERIFIED')
            return fail(reply, 'email_unverified');
          request.log.warn({ err: (error as Error).message }, 'SSO sign-in failed');
          return fail(reply, 'sign_in_failed');
        }
        if (result.outcome === 'LINK_CONFIRMATION')
          return reply.header('cache-control', 'no-store').redirect(appPage('/auth/sso/confirm-email'), 302);
        if (result.outcome === 'PENDING_APPROVAL')
          return reply
            .header('cache-control', 'no-store')
            .redirect(appPage('/auth/sso/pending-approval'), 302);
        const session = result.session!;
        setSessionCookies(
          reply,
          { domain: options.cookieDomain },
          {
            accessToken: session.accessToken,
            refreshToken: session.refreshToken,
            csrfToken: newCsrfToken(),
          },
        );
        return reply.redirect(returnToLocation(remembered.returnTo, options.appUrl), 302);
      };
    },
  }),
] as const;

/** Registers SSO_ROUTES for the configured providers. */
export async function authV2SsoRoutes(app: FastifyInstance, options: SsoOptions): Promise<void> {
  registerRoutes(app, SSO_ROUTES, ssoContext(options));
}

/** Printable ASCII, at most 2,048 characters each, at most 8 parameters (code, state, iss, …). */
const CALLBACK_VALUE = new RegExp(`^[\\x20-\\x7e]{0,${MAX_CALLBACK_VALUE_LENGTH}}$`);
function callbackQueryInShape(query: Record<string, unknown>): boolean {
  const entries = Object.entries(query);
  return (
    entries.length <= MAX_CALLBACK_PARAMETERS &&
    entries.every(([, value]) => typeof value === 'string' && CALLBACK_VALUE.test(value))
  );
}

function sameValue(a: string | undefined, b: string): boolean {
  if (!a) return false;
  const digest = (v: string) => createHash('sha256').update(v).digest();
  return timingSafeEqual(digest(a), digest(b));
}
