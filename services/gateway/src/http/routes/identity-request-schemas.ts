import { Type, type TProperties } from '@sinclair/typebox';
import { API_SCOPES, ROLES } from '@tap/contracts';
import { NOT_BLANK, OneOf } from '../typebox.js';

/*
 * Request schemas of identity's edge, in TypeBox (validation, the document and the handlers'
 * types from one declaration). Bounds only: what makes an e-mail, a name or a scope acceptable is
 * identity's to say, with its own codes. Login bodies stay open (the spec leaves room for more
 * fields there); the administrative ones are closed.
 */

const Email = Type.String({ minLength: 1, maxLength: 320 });

/**
 * An open body (the spec leaves room for more fields) without the two keys the JSON parser
 * refuses as prototype poisoning (`__proto__`, `constructor`: 400 INVALID_JSON), so the document
 * calls no body valid that the gateway refuses.
 */
const Open = <T extends TProperties>(properties: T) =>
  Type.Object(properties, { propertyNames: { not: { enum: ['__proto__', 'constructor'] } } });

export const LoginBody = Open({
  email: Email,
  password: Type.String({ minLength: 1, maxLength: 1024 }),
});

export const RefreshBody = Open({ refreshToken: Type.String({ minLength: 1, maxLength: 512 }) });

export const MagicLinkRequestBody = Open({ email: Email });

export const SignupBody = Open({
  email: Email,
  companyName: Type.String({ minLength: 1, maxLength: 120 }),
  firstName: Type.String({ minLength: 1, maxLength: 100 }),
  lastName: Type.String({ minLength: 1, maxLength: 100 }),
});

export const RedeemBody = Open({ token: Type.String({ minLength: 1, maxLength: 256 }) });

export const CreateClientBody = Type.Object(
  {
    // Identity trims the name before it counts: something besides blanks (see NOT_BLANK).
    name: Type.String({ minLength: 1, maxLength: 100, pattern: NOT_BLANK }),
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
