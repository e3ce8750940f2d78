import type { MemberList, WorkspaceJson, WorkspaceList } from '@mimamori/http-api';
import { apiRequest } from './client.ts';

export type {
  InvitationJson,
  MemberJson,
  MemberList,
  WorkspaceJson,
  WorkspaceRoleName,
} from '@mimamori/http-api';

/** GET /api/workspaces: the signed-in person's workspaces (docs/product.md#workspaces). */
export function fetchWorkspaces(signal?: AbortSignal): Promise<WorkspaceList> {
  return apiRequest<WorkspaceList>('/api/workspaces', signal ? { signal } : {});
}

export function switchWorkspace(workspaceId: string): Promise<{ workspace: WorkspaceJson }> {
  return apiRequest('/api/workspaces/switch', { method: 'POST', body: { workspace_id: workspaceId } });
}

export function fetchMembers(signal?: AbortSignal): Promise<MemberList> {
  return apiRequest<MemberList>('/api/workspace/members', signal ? { signal } : {});
}

export function inviteMember(email: string, role: string): Promise<MemberList> {
  return apiRequest('/api/workspace/invitations', { method: 'POST', body: { email, role } });
}

export function revokeInvitation(id: string): Promise<MemberList> {
  return apiRequest('/api/workspace/invitations/revoke', { method: 'POST', body: { id } });
}

export function acceptInvitation(token: string): Promise<{ workspace: WorkspaceJson }> {
  return apiRequest('/api/invitations/accept', { method: 'POST', body: { token } });
}

export function changeMemberRole(personId: string, role: string): Promise<MemberList> {
  return apiRequest('/api/workspace/members/role', { method: 'POST', body: { person_id: personId, role } });
}

export function removeMember(personId: string): Promise<MemberList> {
  return apiRequest('/api/workspace/members/remove', { method: 'POST', body: { person_id: personId } });
}

export function leaveWorkspace(): Promise<{ status: 'left' }> {
  return apiRequest('/api/workspace/leave', { method: 'POST' });
}

export function transferOwnership(personId: string): Promise<MemberList> {
  return apiRequest('/api/workspace/transfer', { method: 'POST', body: { person_id: personId } });
}

/** POST /api/workspace/security: the owner requires a second factor of every member, or stops. */
export function setTwoFactorRequired(required: boolean): Promise<MemberList> {
  return apiRequest('/api/workspace/security', { method: 'POST', body: { two_factor_required: required } });
}
