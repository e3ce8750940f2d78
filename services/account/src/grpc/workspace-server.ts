import type { workspaceV1 } from '@mimamori/contracts';
import { unaryHandler } from '@mimamori/service-host';
import {
  acceptInvitation,
  changeMemberRole,
  inviteMember,
  leaveWorkspace,
  listMembers,
  listWorkspaces,
  removeMember,
  revokeInvitation,
  setTwoFactorRequired,
  switchWorkspace,
  transferOwnership,
  type WorkspaceDeps,
} from '../domain/workspaces.ts';
import { answering } from './problem-status.ts';

/** Workspaces, members and invitations over gRPC (ADR 0033); each call acts in the session's workspace. */
export function workspaceServer(deps: WorkspaceDeps): workspaceV1.WorkspaceServiceServer {
  const rpc = <Req, Res>(work: (request: Req) => Promise<Res>) =>
    unaryHandler((request: Req) => answering(() => work(request)));
  return {
    listWorkspaces: rpc(async (request: workspaceV1.ListWorkspacesRequest) => ({
      workspaces: await listWorkspaces(request.sessionToken, deps),
    })),
    switchWorkspace: rpc(async (request: workspaceV1.SwitchWorkspaceRequest) => ({
      workspace: await switchWorkspace(request.sessionToken, request.workspaceId, deps),
    })),
    listMembers: rpc((request: workspaceV1.ListMembersRequest) => listMembers(request.sessionToken, deps)),
    inviteMember: rpc((request: workspaceV1.InviteMemberRequest) =>
      inviteMember(request.sessionToken, { email: request.email, role: request.role }, deps),
    ),
    revokeInvitation: rpc((request: workspaceV1.RevokeInvitationRequest) =>
      revokeInvitation(request.sessionToken, request.invitationId, deps),
    ),
    acceptInvitation: rpc(async (request: workspaceV1.AcceptInvitationRequest) => ({
      workspace: await acceptInvitation(request.sessionToken, request.token, deps),
    })),
    changeMemberRole: rpc((request: workspaceV1.ChangeMemberRoleRequest) =>
      changeMemberRole(request.sessionToken, { personId: request.personId, role: request.role }, deps),
    ),
    removeMember: rpc((request: workspaceV1.RemoveMemberRequest) =>
      removeMember(request.sessionToken, request.personId, deps),
    ),
    leaveWorkspace: rpc(async (request: workspaceV1.LeaveWorkspaceRequest) => {
      await leaveWorkspace(request.sessionToken, deps);
      return {};
    }),
    transferOwnership: rpc((request: workspaceV1.TransferOwnershipRequest) =>
      transferOwnership(request.sessionToken, request.personId, deps),
    ),
    setTwoFactorRequired: rpc((request: workspaceV1.SetTwoFactorRequiredRequest) =>
      setTwoFactorRequired(request.sessionToken, request.required, deps),
    ),
  };
}
