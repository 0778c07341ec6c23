export type {
  IdentityServiceClient,
  IdentityServiceHandlers,
  IdentityServiceDefinition,
} from './generated/tap/identity/v1/IdentityService.js';
export type { Jwk, Jwk__Output } from './generated/tap/identity/v1/Jwk.js';
export type { GetJwksResponse, GetJwksResponse__Output } from './generated/tap/identity/v1/GetJwksResponse.js';
export type { Tenant, Tenant__Output } from './generated/tap/identity/v1/Tenant.js';
export type { CreateTenantRequest__Output } from './generated/tap/identity/v1/CreateTenantRequest.js';
export type {
  IssueAccessTokenRequest__Output,
  IssueAccessTokenRequest,
} from './generated/tap/identity/v1/IssueAccessTokenRequest.js';
export type { IssueAccessTokenResponse } from './generated/tap/identity/v1/IssueAccessTokenResponse.js';
