import { memberLimit } from '@mimamori/plans';
import type { AccountDeps } from './account-deps.ts';
import type { AccountMail } from './account-mail.ts';
import type { SessionUser } from './account-port.ts';
import { AccountProblem } from './account-problem.ts';
import { hashToken, issueToken, looksLikeToken } from './one-time-token.ts';
import { hashSessionToken } from './session-token.ts';
import { requireCaller } from './sessions.ts';
import { isWorkspaceRole, roleAllows, type WorkspaceRole } from './workspace-role.ts';

// docs/product.md#workspaces, ADR 0033: a workspace is an account; its members are persons with a
// role. The gateway refuses by its route table first; these checks hold whoever calls.

export interface WorkspaceView {
  id: string;
  name: string;
  role: WorkspaceRole;
  personal: boolean;
}

export interface MemberRecord {
  personId: string;
  name: string;
  email: string;
  role: WorkspaceRole;
  joinedAt: Date;
  /** An authenticator app or a passkey is set up (ADR 0034). */
  hasSecondFactor: boolean;
}

export interface InvitationRecord {
  id: string;
  email: string;
  role: WorkspaceRole;
  createdAt: Date;
  expiresAt: Date;
}

export interface NewInvitation extends InvitationRecord {
  workspaceId: string;
  tokenHash: string;
  invitedBy: string;
}

/** What workspaces need from storage; each call is one transaction. */
export interface WorkspacePort {
  listWorkspaces(personId: string): Promise<WorkspaceView[]>;
  /** The workspace's members, its pending invitations at `now`, and its plan. */
  loadMembers(
    workspaceId: string,
    now: Date,
  ): Promise<{
    members: MemberRecord[];
    invitations: InvitationRecord[];
    plan: number;
    name: string;
    lang: 'ja' | 'en';
    /** Every member must sign in with a second factor (docs/product.md#workspaces). */
    twoFactorRequired: boolean;
  }>;
  setTwoFactorRequired(workspaceId: string, required: boolean): Promise<void>;
  /** The workspace requires a second factor and the person has none (one read, asked on every call). */
  secondFactorMissing(workspaceId: string, personId: string): Promise<boolean>;
  setSessionWorkspace(sessionTokenHash: string, workspaceId: string | null): Promise<void>;
  /** Stores the invitation and queues its mail together; 'exists' when one is pending for the address. */
  insertInvitation(invitation: NewInvitation, mail: AccountMail, now: Date): Promise<'created' | 'exists'>;
  /** Ends a pending invitation; false when there was none by that id in the workspace. */
  revokeInvitation(workspaceId: string, invitationId: string, now: Date): Promise<boolean>;
  /**
   * Marks the pending invitation with this token hash accepted and makes the person a member with
   * its role (a member already keeps their role). Null when no pending invitation has the hash.
   */
  acceptInvitation(tokenHash: string, personId: string, now: Date): Promise<{ workspaceId: string } | null>;
  setRole(workspaceId: string, personId: string, role: WorkspaceRole): Promise<boolean>;
  removeMember(workspaceId: string, personId: string): Promise<boolean>;
  /** The owner becomes admin and the member owner, in one transaction; false when not a member. */
  transferOwnership(workspaceId: string, fromPersonId: string, toPersonId: string): Promise<boolean>;
}

export type WorkspaceDeps = Pick<AccountDeps, 'accounts' | 'clock' | 'newId'> & { workspaces: WorkspacePort };

const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,255}$/;
const INVITABLE: readonly WorkspaceRole[] = ['admin', 'editor', 'viewer'];

async function callerAtLeast(sessionToken: string, least: WorkspaceRole, deps: WorkspaceDeps) {
  const caller = await requireCaller(sessionToken, deps);
  if (!roleAllows(caller.role, least)) throw new AccountProblem('forbidden', 'role_forbidden');
  return caller;
}

export async function listWorkspaces(sessionToken: string, deps: WorkspaceDeps) {
  const caller = await requireCaller(sessionToken, deps);
  const workspaces = await deps.workspaces.listWorkspaces(caller.personId);
  return workspaces.map((workspace) => ({ ...workspace, current: workspace.id === caller.userId }));
}

export async function switchWorkspace(sessionToken: string, workspaceId: string, deps: WorkspaceDeps) {
  const caller = await requireCaller(sessionToken, deps);
  const workspace = (await deps.workspaces.listWorkspaces(caller.personId)).find(
    (each) => each.id === workspaceId,
  );
  if (!workspace) throw new AccountProblem('not_found', 'workspace_not_found');
  await deps.workspaces.setSessionWorkspace(hashSessionToken(sessionToken), workspace.id);
  return { ...workspace, current: true };
}

export async function listMembers(sessionToken: string, deps: WorkspaceDeps) {
  return membersOf(await requireCaller(sessionToken, deps), deps);
}

async function membersOf(caller: SessionUser & { role: WorkspaceRole }, deps: WorkspaceDeps) {
  const loaded = await deps.workspaces.loadMembers(caller.userId, deps.clock.now());
  return {
    members: loaded.members.map((member) => ({ ...member, you: member.personId === caller.personId })),
    invitations: loaded.invitations,
    memberLimit: memberLimit(loaded.plan),
    role: caller.role,
    twoFactorRequired: loaded.twoFactorRequired,
  };
}

/**
 * docs/product.md#workspaces: the owner may require a second factor of every member, once they
 * have one themselves (else the owner would lock themselves out of their own workspace's routes).
 */
export async function setTwoFactorRequired(sessionToken: string, required: boolean, deps: WorkspaceDeps) {
  const caller = await callerAtLeast(sessionToken, 'owner', deps);
  if (required) {
    const loaded = await deps.workspaces.loadMembers(caller.userId, deps.clock.now());
    const owner = loaded.members.find((member) => member.personId === caller.personId);
    if (!owner?.hasSecondFactor) {
      throw new AccountProblem('precondition', 'owner_needs_second_factor');
    }
  }
  await deps.workspaces.setTwoFactorRequired(caller.userId, required);
  return membersOf(caller, deps);
}

/**
 * Whether the caller's workspace requires a second factor the person has not set up; the gateway
 * then answers only the person's own routes (their sign-in security, their workspaces). An API
 * token stands for the owner, who must have a factor to require one, so it is not asked.
 */
export async function secondFactorMissing(
  caller: SessionUser & { role: WorkspaceRole },
  deps: WorkspaceDeps,
): Promise<boolean> {
  return deps.workspaces.secondFactorMissing(caller.userId, caller.personId);
}

export async function inviteMember(
  sessionToken: string,
  invite: { email: string; role: string },
  deps: WorkspaceDeps,
) {
  const caller = await callerAtLeast(sessionToken, 'admin', deps);
  const email = invite.email.trim();
  if (!EMAIL.test(email)) throw new AccountProblem('invalid', 'invalid_email');
  if (!isWorkspaceRole(invite.role) || !INVITABLE.includes(invite.role)) {
    throw new AccountProblem('invalid', 'invalid_role');
  }
  const now = deps.clock.now();
  const loaded = await deps.workspaces.loadMembers(caller.userId, now);
  if (loaded.members.some((member) => member.email.toLowerCase() === email.toLowerCase())) {
    throw new AccountProblem('precondition', 'already_member');
  }
  if (loaded.members.length + loaded.invitations.length >= memberLimit(loaded.plan)) {
    throw new AccountProblem('precondition', 'member_limit_reached');
  }
  const inviter = loaded.members.find((member) => member.personId === caller.personId);
  const token = issueToken('workspace_invitation', now);
  const id = deps.newId();
  const stored = await deps.workspaces.insertInvitation(
    {
      id,
      workspaceId: caller.userId,
      email,
      role: invite.role,
      tokenHash: token.hash,
      invitedBy: caller.personId,
      createdAt: now,
      expiresAt: token.expiresAt,
    },
    {
      kind: 'workspace_invitation',
      userId: caller.userId,
      to: email,
      lang: loaded.lang,
      token,
      tokenSubject: id,
      invitation: {
        workspaceName: loaded.name,
        role: invite.role,
        inviterName: inviter?.name || inviter?.email || '',
      },
    },
    now,
  );
  if (stored === 'exists') throw new AccountProblem('precondition', 'already_invited');
  return membersOf(caller, deps);
}

export async function revokeInvitation(sessionToken: string, invitationId: string, deps: WorkspaceDeps) {
  const caller = await callerAtLeast(sessionToken, 'admin', deps);
  if (!(await deps.workspaces.revokeInvitation(caller.userId, invitationId, deps.clock.now()))) {
    throw new AccountProblem('not_found', 'invitation_not_found');
  }
  return membersOf(caller, deps);
}

export async function acceptInvitation(sessionToken: string, token: string, deps: WorkspaceDeps) {
  const caller = await requireCaller(sessionToken, deps);
  const accepted = looksLikeToken(token)
    ? await deps.workspaces.acceptInvitation(hashToken(token), caller.personId, deps.clock.now())
    : null;
  if (!accepted) throw new AccountProblem('not_found', 'invitation_not_found');
  return switchWorkspace(sessionToken, accepted.workspaceId, deps);
}

/** The member an admin or owner acts on: never the owner, never themselves. */
async function otherMember(sessionToken: string, personId: string, deps: WorkspaceDeps) {
  const caller = await callerAtLeast(sessionToken, 'admin', deps);
  if (personId === caller.personId) throw new AccountProblem('invalid', 'cannot_change_own_role');
  const loaded = await deps.workspaces.loadMembers(caller.userId, deps.clock.now());
  const member = loaded.members.find((each) => each.personId === personId);
  if (!member) throw new AccountProblem('not_found', 'member_not_found');
  if (member.role === 'owner') throw new AccountProblem('precondition', 'owner_role_fixed');
  return caller;
}

export async function changeMemberRole(
  sessionToken: string,
  change: { personId: string; role: string },
  deps: WorkspaceDeps,
) {
  if (!isWorkspaceRole(change.role) || !INVITABLE.includes(change.role)) {
    throw new AccountProblem('invalid', 'invalid_role');
  }
  const caller = await otherMember(sessionToken, change.personId, deps);
  await deps.workspaces.setRole(caller.userId, change.personId, change.role);
  return membersOf(caller, deps);
}

export async function removeMember(sessionToken: string, personId: string, deps: WorkspaceDeps) {
  const caller = await otherMember(sessionToken, personId, deps);
  await deps.workspaces.removeMember(caller.userId, personId);
  return membersOf(caller, deps);
}

export async function leaveWorkspace(sessionToken: string, deps: WorkspaceDeps) {
  const caller = await requireCaller(sessionToken, deps);
  if (caller.role === 'owner') throw new AccountProblem('invalid', 'owner_cannot_leave');
  await deps.workspaces.removeMember(caller.userId, caller.personId);
  await deps.workspaces.setSessionWorkspace(hashSessionToken(sessionToken), null);
}

export async function transferOwnership(sessionToken: string, personId: string, deps: WorkspaceDeps) {
  const caller = await callerAtLeast(sessionToken, 'owner', deps);
  if (personId === caller.personId) throw new AccountProblem('invalid', 'cannot_change_own_role');
  if (!(await deps.workspaces.transferOwnership(caller.userId, caller.personId, personId))) {
    throw new AccountProblem('not_found', 'member_not_found');
  }
  return membersOf({ ...caller, role: 'admin' }, deps);
}
