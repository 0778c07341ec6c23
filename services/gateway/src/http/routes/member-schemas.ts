import { Type, type TProperties } from '@sinclair/typebox';
import { Envelope, Nullable } from '../typebox.js';

const Closed = <T extends TProperties>(properties: T) =>
  Type.Object(properties, { additionalProperties: false });

/*
 * Team management (docs/api.md, "Members"; the contract in issue #22): request bounds here, the
 * rules (who may change whom, the last OWNER, seats) in identity.
 */

/** Identity's user ids are UUIDs; the bound only keeps garbage short. */
export const MemberParams = Type.Object({ userId: Type.String({ minLength: 1, maxLength: 64 }) });

export const ChangeRoleBody = Type.Object(
  { role: Type.Union([Type.Literal('OWNER'), Type.Literal('ADMIN'), Type.Literal('MEMBER')]) },
  { additionalProperties: false },
);

const Member = Closed({
  id: Type.String(),
  email: Type.String(),
  firstName: Type.String(),
  lastName: Type.String(),
  role: Type.Union([Type.Literal('OWNER'), Type.Literal('ADMIN'), Type.Literal('MEMBER')]),
  status: Type.Union([Type.Literal('ACTIVE'), Type.Literal('DEACTIVATED')]),
  lastSignInAt: Nullable(Type.String()),
  createdAt: Type.String(),
});

const JoinRequest = Closed({
  id: Type.String(),
  userId: Type.String(),
  email: Type.String(),
  firstName: Type.String(),
  lastName: Type.String(),
  status: Type.String(),
  createdAt: Type.String(),
});

export const listMembersResponse = { 200: Envelope(Closed({ members: Type.Array(Member) })) };
export const memberResponse = { 200: Envelope(Closed({ member: Member })) };
export const rejectJoinRequestResponse = { 200: Envelope(Closed({ request: JoinRequest })) };
