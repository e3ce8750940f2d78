import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AccountSection } from '../account/account-section.tsx';
import {
  changeMemberRole,
  fetchMembers,
  inviteMember,
  leaveWorkspace,
  type MemberJson,
  type MemberList,
  removeMember,
  revokeInvitation,
  setTwoFactorRequired,
  transferOwnership,
} from '../api/workspaces.ts';
import { FormMessage } from '../forms/form-message.tsx';
import { useErrorText } from '../forms/use-error-text.ts';
import { queryKeys } from '../query-keys.ts';
import { AlertDialog } from '../shell/alert-dialog.tsx';
import { LoadingIndicator } from '../shell/loading-indicator.tsx';
import { Page } from '../shell/page.tsx';
import { roleAllows } from '../workspaces/use-role.ts';
import '../workspaces/workspaces.css';

const INVITABLE = ['admin', 'editor', 'viewer'] as const;
type Confirming = { kind: 'remove' | 'transfer'; member: MemberJson } | { kind: 'leave' } | null;

/** The current workspace's members and invitations (docs/product.md#workspaces). */
export default function MembersPage() {
  const { t, i18n } = useTranslation();
  const errorText = useErrorText();
  const queryClient = useQueryClient();
  const members = useQuery({ queryKey: queryKeys.members, queryFn: ({ signal }) => fetchMembers(signal) });
  const [email, setEmail] = useState('');
  const [inviteRole, setInviteRole] = useState<string>('editor');
  const [notice, setNotice] = useState('');
  const [confirming, setConfirming] = useState<Confirming>(null);
  const change = useMutation({
    mutationFn: (work: () => Promise<MemberList>) => work(),
    onSuccess: (list) => {
      queryClient.setQueryData(queryKeys.members, list);
      // A handed-over workspace changes what this person may do everywhere.
      void queryClient.invalidateQueries({ queryKey: queryKeys.userInfo });
    },
  });
  const leave = useMutation({
    mutationFn: leaveWorkspace,
    // Everything on screen was the workspace just left: start again in one's own.
    onSuccess: () => window.location.assign('/'),
  });

  if (members.isPending) {
    return (
      <Page title="members">
        <LoadingIndicator />
      </Page>
    );
  }
  if (members.isError) {
    return (
      <Page title="members">
        <FormMessage tone="error" message={errorText(members.error)} />
      </Page>
    );
  }
  const list = members.data;
  const manages = roleAllows(list.role, 'admin');
  const owns = list.role === 'owner';
  const date = (iso: string) => new Date(iso).toLocaleDateString(i18n.language === 'en' ? 'en' : 'ja');
  const roleName = (role: string) => t(`workspaces.roles.${role as 'owner'}`);
  const memberName = (member: MemberJson) => member.name || member.email;
  const used = list.members.length + list.invitations.length;

  const invite = (event: FormEvent) => {
    event.preventDefault();
    setNotice('');
    change.mutate(() => inviteMember(email, inviteRole), {
      onSuccess: () => {
        setNotice(t('workspaces.invited', { email }));
        setEmail('');
      },
    });
  };

  return (
    <Page title="members">
      <p className="workspace-role-line" data-testid="your-role">
        {t('workspaces.yourRole', { role: roleName(list.role) })}
      </p>
      <p className="field-hint workspace-role-help">{t('workspaces.roleHelp')}</p>
      {change.isError && <FormMessage tone="error" message={errorText(change.error)} />}
      {notice && <FormMessage tone="success" message={notice} />}
      <div className="account-grid">
        <AccountSection id="members" title={t('workspaces.membersTitle')}>
          <p className="field-hint">{t('workspaces.limit', { count: used, limit: list.member_limit })}</p>
          <ul className="member-list">
            {list.members.map((member) => (
              <li key={member.person_id} className="member-row" data-testid="member">
                <div className="member-who">
                  <span className="member-name">
                    {memberName(member)}
                    {member.you && <span className="member-you"> ({t('workspaces.you')})</span>}
                  </span>
                  {member.name && <span className="member-email">{member.email}</span>}
                  <span className="member-email" data-testid="member-second-factor">
                    {t(member.has_second_factor ? 'workspaces.secondFactorOn' : 'workspaces.secondFactorOff')}
                  </span>
                </div>
                {manages && !member.you && member.role !== 'owner' ? (
                  <div className="member-actions">
                    <label className="visually-hidden" htmlFor={`role-${member.person_id}`}>
                      {t('workspaces.roleOf', { name: memberName(member) })}
                    </label>
                    <select
                      id={`role-${member.person_id}`}
                      className="input member-role-select"
                      value={member.role}
                      disabled={change.isPending}
                      onChange={(event) =>
                        change.mutate(() => changeMemberRole(member.person_id, event.target.value))
                      }
                    >
                      {INVITABLE.map((role) => (
                        <option key={role} value={role}>
                          {roleName(role)}
                        </option>
                      ))}
                    </select>
                    {owns && (
                      <button
                        type="button"
                        className="button"
                        onClick={() => setConfirming({ kind: 'transfer', member })}
                      >
                        {t('workspaces.transfer')}
                      </button>
                    )}
                    <button
                      type="button"
                      className="button danger"
                      onClick={() => setConfirming({ kind: 'remove', member })}
                    >
                      {t('workspaces.remove')}
                    </button>
                  </div>
                ) : (
                  <span className="member-role">{roleName(member.role)}</span>
                )}
              </li>
            ))}
          </ul>
        </AccountSection>

        {manages && (
          <AccountSection id="invite" title={t('workspaces.inviteTitle')}>
            <form className="invite-form" onSubmit={invite}>
              <div className="field">
                <label htmlFor="invite-email" className="field-label">
                  {t('workspaces.inviteEmail')}
                </label>
                <input
                  id="invite-email"
                  className="input"
                  type="email"
                  required
                  autoComplete="off"
                  value={email}
                  onChange={(event) => setEmail(event.target.value)}
                />
              </div>
              <div className="field">
                <label htmlFor="invite-role" className="field-label">
                  {t('workspaces.inviteRole')}
                </label>
                <select
                  id="invite-role"
                  className="input"
                  value={inviteRole}
                  onChange={(event) => setInviteRole(event.target.value)}
                >
                  {INVITABLE.map((role) => (
                    <option key={role} value={role}>
                      {roleName(role)}
                    </option>
                  ))}
                </select>
              </div>
              <button type="submit" className="button primary" disabled={change.isPending}>
                {t('workspaces.inviteSend')}
              </button>
            </form>
            <h3 className="account-data-subtitle">{t('workspaces.pendingTitle')}</h3>
            {list.invitations.length === 0 ? (
              <p className="field-hint">{t('workspaces.pendingNone')}</p>
            ) : (
              <ul className="member-list">
                {list.invitations.map((invitation) => (
                  <li key={invitation.id} className="member-row" data-testid="invitation">
                    <div className="member-who">
                      <span className="member-name">{invitation.email}</span>
                      <span className="member-email">
                        {roleName(invitation.role)} ·{' '}
                        {t('workspaces.expires', { date: date(invitation.expires_at) })}
                      </span>
                    </div>
                    <button
                      type="button"
                      className="button"
                      disabled={change.isPending}
                      onClick={() => change.mutate(() => revokeInvitation(invitation.id))}
                    >
                      {t('workspaces.revoke')}
                    </button>
                  </li>
                ))}
              </ul>
            )}
          </AccountSection>
        )}

        <AccountSection id="two-factor" title={t('workspaces.twoFactorTitle')}>
          <p className="field-hint">{t('workspaces.twoFactorHelp')}</p>
          {owns ? (
            <label className="checkbox">
              <input
                type="checkbox"
                checked={list.two_factor_required}
                disabled={change.isPending}
                onChange={(event) => {
                  const required = event.target.checked;
                  setNotice('');
                  change.mutate(() => setTwoFactorRequired(required), {
                    onSuccess: () =>
                      setNotice(t(required ? 'workspaces.twoFactorOn' : 'workspaces.twoFactorOff')),
                  });
                }}
              />
              {t('workspaces.twoFactorRequire')}
            </label>
          ) : (
            <p data-testid="two-factor-state">
              {t(list.two_factor_required ? 'workspaces.twoFactorOn' : 'workspaces.twoFactorOff')}
            </p>
          )}
        </AccountSection>

        <AccountSection id="leave" title={t('workspaces.leaveTitle')}>
          {owns ? (
            <p className="field-hint">{t('workspaces.ownerCannotLeave')}</p>
          ) : (
            <>
              <p className="field-hint">{t('workspaces.leaveHelp')}</p>
              {leave.isError && <FormMessage tone="error" message={errorText(leave.error)} />}
              <button
                type="button"
                className="button danger"
                onClick={() => setConfirming({ kind: 'leave' })}
              >
                {t('workspaces.leave')}
              </button>
            </>
          )}
        </AccountSection>
      </div>

      {confirming && (
        <AlertDialog
          message={
            confirming.kind === 'leave'
              ? t('workspaces.leaveConfirm')
              : t(confirming.kind === 'remove' ? 'workspaces.removeConfirm' : 'workspaces.transferConfirm', {
                  name: memberName(confirming.member),
                })
          }
          onClose={() => setConfirming(null)}
          actions={
            <>
              <button type="button" className="button" onClick={() => setConfirming(null)}>
                {t('siteDetail.cancel')}
              </button>
              <button
                type="button"
                className="button danger-solid"
                onClick={() => {
                  const chosen = confirming;
                  setConfirming(null);
                  if (chosen.kind === 'leave') leave.mutate();
                  else if (chosen.kind === 'remove')
                    change.mutate(() => removeMember(chosen.member.person_id));
                  else change.mutate(() => transferOwnership(chosen.member.person_id));
                }}
              >
                {confirming.kind === 'leave'
                  ? t('workspaces.leave')
                  : confirming.kind === 'remove'
                    ? t('workspaces.remove')
                    : t('workspaces.transfer')}
              </button>
            </>
          }
        />
      )}
    </Page>
  );
}
