export type {
  IdentityServiceClient,
  IdentityServiceHandlers,
  IdentityServiceDefinition,
} from './generated/tap/identity/v1/IdentityService.js';
export type { Jwk, Jwk__Output } from './generated/tap/identity/v1/Jwk.js';
export type {
  GetJwksResponse,
  GetJwksResponse__Output,
} from './generated/tap/identity/v1/GetJwksResponse.js';
export type { Tenant, Tenant__Output } from './generated/tap/identity/v1/Tenant.js';
export type { CreateTenantRequest__Output } from './generated/tap/identity/v1/CreateTenantRequest.js';
export type {
  IssueAccessTokenRequest__Output,
  IssueAccessTokenRequest,
} from './generated/tap/identity/v1/IssueAccessTokenRequest.js';
export type { IssueAccessTokenResponse } from './generated/tap/identity/v1/IssueAccessTokenResponse.js';
export type { User, User__Output } from './generated/tap/identity/v1/User.js';
export type { NewUser, NewUser__Output } from './generated/tap/identity/v1/NewUser.js';
export type {
  TenantWithOwner,
  TenantWithOwner__Output,
} from './generated/tap/identity/v1/TenantWithOwner.js';
export type { SessionTokens, SessionTokens__Output } from './generated/tap/identity/v1/SessionTokens.js';
export type { ClientToken, ClientToken__Output } from './generated/tap/identity/v1/ClientToken.js';
export type { OAuthClient, OAuthClient__Output } from './generated/tap/identity/v1/OAuthClient.js';
export type {
  OAuthClientSecret,
  OAuthClientSecret__Output,
} from './generated/tap/identity/v1/OAuthClientSecret.js';
export type {
  RotateSigningKeyResponse,
  RotateSigningKeyResponse__Output,
} from './generated/tap/identity/v1/RotateSigningKeyResponse.js';
export type { Member, Member__Output } from './generated/tap/identity/v1/Member.js';
export type {
  ListMembersResponse,
  ListMembersResponse__Output,
} from './generated/tap/identity/v1/ListMembersResponse.js';
export type { SessionClient, SessionClient__Output } from './generated/tap/identity/v1/SessionClient.js';
export type { Invitation, Invitation__Output } from './generated/tap/identity/v1/Invitation.js';
export type { SessionInfo, SessionInfo__Output } from './generated/tap/identity/v1/SessionInfo.js';
