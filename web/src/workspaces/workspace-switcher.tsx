import { useMutation, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { fetchWorkspaces, switchWorkspace, type WorkspaceJson } from '../api/workspaces.ts';
import { queryKeys } from '../query-keys.ts';
import './workspaces.css';

/**
 * The shell's workspace switcher (docs/product.md#workspaces): the person's workspaces with their
 * role in each; choosing one makes it the session's and opens its dashboard afresh, as every
 * screen's data was the previous workspace's. A slim bar under the header, shown only to a person
 * with more than one workspace: in the header's row it pushed the links onto a second line at
 * 1280 px, and a person with one workspace has nothing to switch to.
 */
export function WorkspaceSwitcher() {
  const { t } = useTranslation();
  const workspaces = useQuery({
    queryKey: queryKeys.workspaces,
    queryFn: ({ signal }) => fetchWorkspaces(signal),
  });
  const switching = useMutation({
    mutationFn: switchWorkspace,
    onSuccess: () => window.location.assign('/'),
  });
  const list = workspaces.data?.workspaces ?? [];
  const current = list.find((workspace) => workspace.current);
  if (!current || list.length < 2) return null;
  const label = (workspace: WorkspaceJson) =>
    `${workspace.personal ? t('workspaces.personal', { name: workspace.name }) : workspace.name} · ${t(
      `workspaces.roles.${workspace.role}`,
    )}`;
  return (
    <div className="workspace-switcher">
      <label htmlFor="workspace-switcher" className="workspace-switcher-label">
        {t('workspaces.switcherLabel')}
      </label>
      <select
        id="workspace-switcher"
        className="input"
        value={current.id}
        disabled={switching.isPending}
        onChange={(event) => switching.mutate(event.target.value)}
      >
        {list.map((workspace) => (
          <option key={workspace.id} value={workspace.id}>
            {label(workspace)}
          </option>
        ))}
      </select>
    </div>
  );
}
