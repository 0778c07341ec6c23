import { Type } from '@sinclair/typebox';
import { API_SCOPES, ROLES } from '@tap/contracts';
import { OneOf } from '../typebox.js';

/*
 * Request schemas of identity's edge, in TypeBox (validation, the document and the handlers'
 * types from one declaration). Bounds only: what makes an e-mail, a name or a scope acceptable is
 * identity's to say, with its own codes. Login bodies stay open (the spec leaves room for more
 * fields there); the administrative ones are closed.
 */

const Email = Type.String({ minLength: 1, maxLength: 320 });

export const LoginBody = Type.Object({
  email: Email,
  password: Type.String({ minLength: 1, maxLength: 1024 }),
});

export const RefreshBody = Type.Object({ refreshToken: Type.String({ minLength: 1, maxLength: 512 }) });

export const MagicLinkRequestBody = Type.Object({ email: Email });

export const SignupBody = Type.Object({
  email: Email,
  companyName: Type.String({ minLength: 1, maxLength: 120 }),
  firstName: Type.String({ minLength: 1, maxLength: 100 }),
  lastName: Type.String({ minLength: 1, maxLength: 100 }),
});

export const RedeemBody = Type.Object({ token: Type.String({ minLength: 1, maxLength: 256 }) });

export const CreateClientBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 100 }),
    scopes: Type.Array(OneOf(API_SCOPES), { minItems: 1, maxItems: 20 }),
  },
  { additionalProperties: false },
);

export const ClientParams = Type.Object({ clientId: Type.String({ minLength: 1, maxLength: 100 }) });

export const JoinRequestParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });

// Invitations and sessions (docs/identity.md "Invitations", docs/browser-sessions.md "Your sessions").
const Role = OneOf(ROLES);

export const CreateInvitationBody = Type.Object(
  { email: Email, role: Role },
  { additionalProperties: false },
);

export const InvitationParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });

export const InvitationTokenBody = Type.Object(
  { token: Type.String({ minLength: 1, maxLength: 256 }) },
  { additionalProperties: false },
);

export const AcceptInvitationBody = Type.Object(
  {
    token: Type.String({ minLength: 1, maxLength: 256 }),
    firstName: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    lastName: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    password: Type.Optional(Type.String({ minLength: 1, maxLength: 1024 })),
    confirmLink: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

export const SessionParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });

export const MemberParams = Type.Object({ userId: Type.String({ minLength: 1, maxLength: 64 }) });
