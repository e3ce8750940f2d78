import type { workspaceV1 } from '@mimamori/contracts';
import {
  type InvitationJson,
  invitationIdBody,
  invitationTokenBody,
  inviteBody,
  type MemberJson,
  type MemberList,
  memberBody,
  memberList,
  memberRoleBody,
  twoFactorRequiredBody,
  type WorkspaceJson,
  workspaceIdBody,
  workspaceLeft,
  workspaceList,
  workspaceRefusals,
  workspaceSwitched,
} from '@mimamori/http-api';
import { unary } from '@mimamori/runtime';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sendApiError } from './api-error.ts';
import { accountWork } from './auth-routes.ts';
import { authorizedByBearer } from './bearer-token.ts';
import { SESSION_COOKIE } from './session-cookie.ts';

const { signedOut, forbidden, notFound } = workspaceRefusals;
const security = [{ session: [] }];

/**
 * Workspaces, members and invitations (docs/product.md#workspaces, ADR 0033). Who may call each
 * is declared in route-roles.ts; the account service checks the role again. Managed from the
 * browser's session only: a token belongs to one workspace and must not invite or switch.
 */
export function workspaceRoutes(
  app: FastifyInstance,
  deps: { workspaces: workspaceV1.WorkspaceServiceClient },
) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { workspaces } = deps;
  const session = (request: FastifyRequest) => request.cookies[SESSION_COOKIE] ?? '';
  const work = (
    request: FastifyRequest,
    reply: FastifyReply,
    run: (sessionToken: string) => Promise<unknown>,
  ) =>
    accountWork(request, reply, async () => {
      if (!session(request)) return sendApiError(reply, 401, 'unauthenticated');
      if (authorizedByBearer(request)) return sendApiError(reply, 403, 'session_required');
      return run(session(request));
    });

  api.get(
    '/api/workspaces',
    {
      schema: {
        summary: 'The workspaces the signed-in person belongs to, and their role in each',
        security,
        response: { 200: workspaceList, 401: signedOut, 403: forbidden },
      },
    },
    (request, reply) =>
      work(request, reply, async (sessionToken) => {
        const answer = await unary(workspaces, 'listWorkspaces', { sessionToken });
        return reply.send({ workspaces: answer.workspaces.map(workspaceJson) });
      }),
  );

  api.post(
    '/api/workspaces/switch',
    {
      schema: {
        summary: 'Work in another of the person’s workspaces from now on in this session',
        security,
        body: workspaceIdBody,
        response: { 200: workspaceSwitched, 401: signedOut, 403: forbidden, 404: notFound },
      },
    },
    (request, reply) =>
      work(request, reply, async (sessionToken) => {
        const answer = await unary(workspaces, 'switchWorkspace', {
          sessionToken,
          workspaceId: request.body?.workspace_id ?? '',
        });
        return reply.send({ workspace: workspaceJson(answer.workspace) });
      }),
  );

  api.get(
    '/api/workspace/members',
    {
      schema: {
        summary: 'The current workspace’s members and pending invitations',
        security,
        response: { 200: memberList, 401: signedOut, 403: forbidden },
      },
    },
    (request, reply) =>
      work(request, reply, async (sessionToken) =>
        reply.send(membersJson(await unary(workspaces, 'listMembers', { sessionToken }))),
      ),
  );

  api.post(
    '/api/workspace/invitations',
    {
      schema: {
        summary: 'Invite someone by e-mail with a role (admin, editor, viewer); mails a link good for 7 days',
        security,
        body: inviteBody,
        response: {
          200: memberList,
          400: workspaceRefusals.invite,
          401: signedOut,
          403: forbidden,
          409: workspaceRefusals.inviteState,
        },
      },
    },
    (request, reply) =>
      work(request, reply, async (sessionToken) => {
        const answer = await unary(workspaces, 'inviteMember', {
          sessionToken,
          email: request.body?.email ?? '',
          role: request.body?.role ?? '',
        });
        return reply.send(membersJson(answer));
      }),
  );

  api.post(
    '/api/workspace/invitations/revoke',
    {
      schema: {
        summary: 'Revoke a pending invitation: its link stops working',
        security,
        body: invitationIdBody,
        response: { 200: memberList, 401: signedOut, 403: forbidden, 404: notFound },
      },
    },
    (request, reply) =>
      work(request, reply, async (sessionToken) => {
        const answer = await unary(workspaces, 'revokeInvitation', {
          sessionToken,
          invitationId: request.body?.id ?? '',
        });
        return reply.send(membersJson(answer));
      }),
  );

  api.post(
    '/api/invitations/accept',
    {
      schema: {
        summary: 'Join the invitation’s workspace as the signed-in person; the session then works in it',
        security,
        body: invitationTokenBody,
        response: { 200: workspaceSwitched, 401: signedOut, 403: forbidden, 404: notFound },
      },
    },
    (request, reply) =>
      work(request, reply, async (sessionToken) => {
        const answer = await unary(workspaces, 'acceptInvitation', {
          sessionToken,
          token: request.body?.token ?? '',
        });
        return reply.send({ workspace: workspaceJson(answer.workspace) });
      }),
  );

  api.post(
    '/api/workspace/members/role',
    {
      schema: {
        summary: 'Give a member another role (admin, editor, viewer); never the owner’s or one’s own',
        security,
        body: memberRoleBody,
        response: {
          200: memberList,
          400: workspaceRefusals.change,
          401: signedOut,
          403: forbidden,
          404: notFound,
          409: workspaceRefusals.changeState,
        },
      },
    },
    (request, reply) =>
      work(request, reply, async (sessionToken) => {
        const answer = await unary(workspaces, 'changeMemberRole', {
          sessionToken,
          personId: request.body?.person_id ?? '',
          role: request.body?.role ?? '',
        });
        return reply.send(membersJson(answer));
      }),
  );

  api.post(
    '/api/workspace/members/remove',
    {
      schema: {
        summary: 'Remove a member; never the owner or oneself (leave instead)',
        security,
        body: memberBody,
        response: {
          200: memberList,
          400: workspaceRefusals.change,
          401: signedOut,
          403: forbidden,
          404: notFound,
          409: workspaceRefusals.changeState,
        },
      },
    },
    (request, reply) =>
      work(request, reply, async (sessionToken) => {
        const answer = await unary(workspaces, 'removeMember', {
          sessionToken,
          personId: request.body?.person_id ?? '',
        });
        return reply.send(membersJson(answer));
      }),
  );

  api.post(
    '/api/workspace/leave',
    {
      schema: {
        summary: 'Leave the current workspace (not its owner); the session goes back to one’s own',
        security,
        response: { 200: workspaceLeft, 400: workspaceRefusals.change, 401: signedOut, 403: forbidden },
      },
    },
    (request, reply) =>
      work(request, reply, async (sessionToken) => {
        await unary(workspaces, 'leaveWorkspace', { sessionToken });
        return reply.send({ status: 'left' as const });
      }),
  );

  api.post(
    '/api/workspace/security',
    {
      schema: {
        summary: 'The owner requires a second factor of every member, or stops requiring it',
        security,
        body: twoFactorRequiredBody,
        response: {
          200: memberList,
          401: signedOut,
          403: forbidden,
          409: workspaceRefusals.security,
        },
      },
    },
    (request, reply) =>
      work(request, reply, async (sessionToken) => {
        const answer = await unary(workspaces, 'setTwoFactorRequired', {
          sessionToken,
          required: request.body?.two_factor_required === true,
        });
        return reply.send(membersJson(answer));
      }),
  );

  api.post(
    '/api/workspace/transfer',
    {
      schema: {
        summary: 'The owner hands the workspace to another member and becomes an admin',
        security,
        body: memberBody,
        response: {
          200: memberList,
          400: workspaceRefusals.change,
          401: signedOut,
          403: forbidden,
          404: notFound,
        },
      },
    },
    (request, reply) =>
      work(request, reply, async (sessionToken) => {
        const answer = await unary(workspaces, 'transferOwnership', {
          sessionToken,
          personId: request.body?.person_id ?? '',
        });
        return reply.send(membersJson(answer));
      }),
  );
}

const roleName = (role: string) =>
  (['owner', 'admin', 'editor', 'viewer'] as const).find((known) => known === role) ?? 'viewer';

function workspaceJson(workspace: workspaceV1.Workspace | undefined): WorkspaceJson {
  return {
    id: workspace?.id ?? '',
    name: workspace?.name ?? '',
    role: roleName(workspace?.role ?? ''),
    current: workspace?.current ?? false,
    personal: workspace?.personal ?? false,
  };
}

function membersJson(answer: workspaceV1.ListMembersResponse): MemberList {
  return {
    members: answer.members.map(
      (member): MemberJson => ({
        person_id: member.personId,
        name: member.name,
        email: member.email,
        role: roleName(member.role),
        joined_at: (member.joinedAt ?? new Date(0)).toISOString(),
        you: member.you,
        has_second_factor: member.hasSecondFactor,
      }),
    ),
    invitations: answer.invitations.map(
      (invitation): InvitationJson => ({
        id: invitation.id,
        email: invitation.email,
        role: roleName(invitation.role),
        created_at: (invitation.createdAt ?? new Date(0)).toISOString(),
        expires_at: (invitation.expiresAt ?? new Date(0)).toISOString(),
      }),
    ),
    member_limit: answer.memberLimit,
    role: roleName(answer.role),
    two_factor_required: answer.twoFactorRequired,
  };
}
