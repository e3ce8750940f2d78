import { z } from 'zod';
import { csrfFailed, refusal, signedOut } from './api-error.ts';

// Workspaces, members and invitations (docs/product.md#workspaces): a person works in one of
// their workspaces at a time; members have a role.

const body = <Shape extends z.core.$ZodLooseShape>(shape: Shape) => z.object(shape).nullish();

export const WORKSPACE_ROLES = ['owner', 'admin', 'editor', 'viewer'] as const;
export type WorkspaceRoleName = (typeof WORKSPACE_ROLES)[number];
const role = z.enum(WORKSPACE_ROLES);

export const workspace = z
  .object({
    id: z.string().describe('The workspace’s id: the user_id every other answer carries for it'),
    name: z.string(),
    role,
    current: z.boolean().describe('The workspace this session works in'),
    personal: z.boolean().describe('The person’s own workspace, made when they signed up'),
  })
  .meta({ id: 'Workspace' });
export type WorkspaceJson = z.infer<typeof workspace>;

export const workspaceList = z
  .object({ workspaces: z.array(workspace) })
  .describe('The workspaces the signed-in person belongs to, their own first');
export type WorkspaceList = z.infer<typeof workspaceList>;

export const workspaceSwitched = z.object({ workspace }).describe('The session now works in this workspace');

export const member = z
  .object({
    person_id: z.string(),
    name: z.string(),
    email: z.string(),
    role,
    joined_at: z.iso.datetime(),
    you: z.boolean(),
    has_second_factor: z.boolean().describe('An authenticator app or a passkey is set up'),
  })
  .meta({ id: 'Member' });
export type MemberJson = z.infer<typeof member>;

export const invitation = z
  .object({
    id: z.string(),
    email: z.string(),
    role,
    created_at: z.iso.datetime(),
    expires_at: z.iso.datetime(),
  })
  .meta({ id: 'Invitation' });
export type InvitationJson = z.infer<typeof invitation>;

export const memberList = z
  .object({
    members: z.array(member),
    invitations: z.array(invitation).describe('Pending: neither accepted, revoked nor expired'),
    member_limit: z
      .number()
      .int()
      .describe('People the plan allows, the owner and pending invitations included'),
    role: role.describe('The caller’s role in this workspace'),
    two_factor_required: z
      .boolean()
      .describe('Every member must sign in with a second factor (docs/product.md#workspaces)'),
  })
  .describe('The current workspace’s members and pending invitations');
export type MemberList = z.infer<typeof memberList>;

export const workspaceIdBody = body({ workspace_id: z.string().nullish() });
export const inviteBody = body({
  email: z.string().nullish(),
  role: z.string().nullish().describe('admin, editor or viewer'),
});
export const invitationIdBody = body({ id: z.string().nullish().describe('The invitation’s id') });
export const invitationTokenBody = body({ token: z.string().nullish().describe('The mailed link’s token') });
export const memberBody = body({ person_id: z.string().nullish() });
export const twoFactorRequiredBody = body({
  two_factor_required: z
    .boolean()
    .nullish()
    .describe('Require a second factor of every member, or stop requiring it'),
});
export const memberRoleBody = body({
  person_id: z.string().nullish(),
  role: z.string().nullish().describe('admin, editor or viewer'),
});
export const workspaceLeft = z
  .object({ status: z.literal('left') })
  .describe('Left; the session is back in the person’s own workspace');

export const workspaceRefusals = {
  signedOut,
  csrf: csrfFailed,
  forbidden: refusal('Not allowed by the caller’s role, managed only from a browser session, or CSRF', [
    'role_forbidden',
    'session_required',
    'csrf_failed',
    'two_factor_required',
  ]),
  invite: refusal('Refused', ['invalid_email', 'invalid_role']),
  inviteState: refusal('Not now', ['member_limit_reached', 'already_member', 'already_invited']),
  change: refusal('Refused', ['invalid_role', 'cannot_change_own_role', 'owner_cannot_leave']),
  changeState: refusal('Not for the owner', ['owner_role_fixed']),
  security: refusal('The owner has no second factor to require of others', ['owner_needs_second_factor']),
  notFound: refusal('Not found in this workspace', [
    'workspace_not_found',
    'member_not_found',
    'invitation_not_found',
  ]),
};
