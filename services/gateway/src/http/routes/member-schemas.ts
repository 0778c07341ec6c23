import { Type, type TProperties } from '@sinclair/typebox';
import { MEMBER_STATUSES, ROLES } from '@tap/contracts';
import { Envelope, EnumText, Nullable, OneOf } from '../typebox.js';
import { JoinRequest } from './identity-schemas.js';

const Closed = <T extends TProperties>(properties: T) =>
  Type.Object(properties, { additionalProperties: false });

/*
 * Team management (docs/api.md, "Members"; the contract in issue #22): request bounds here, the
 * rules (who may change whom, the last OWNER, seats) in identity.
 */

/** Identity's user ids are UUIDs; the bound only keeps garbage short. */
export const MemberParams = Type.Object({ userId: Type.String({ minLength: 1, maxLength: 64 }) });

export const ChangeRoleBody = Type.Object({ role: OneOf(ROLES) }, { additionalProperties: false });

const Member = Closed({
  id: Type.String(),
  email: Type.String(),
  firstName: Type.String(),
  lastName: Type.String(),
  role: EnumText(ROLES),
  status: EnumText(MEMBER_STATUSES),
  lastSignInAt: Nullable(Type.String()),
  createdAt: Type.String(),
});

export const listMembersResponse = { 200: Envelope(Closed({ members: Type.Array(Member) })) };
export const memberResponse = { 200: Envelope(Closed({ member: Member })) };
export const rejectJoinRequestResponse = { 200: Envelope(Closed({ request: JoinRequest })) };
