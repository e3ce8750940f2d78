import type { WorkspaceRoleName } from '@mimamori/http-api';
import { useUserInfo } from '../hooks/use-user-info.ts';

const ORDER: readonly WorkspaceRoleName[] = ['viewer', 'editor', 'admin', 'owner'];

/** Whether a role may do what needs at least `least` (docs/product.md#workspaces). */
export function roleAllows(role: WorkspaceRoleName | undefined, least: WorkspaceRoleName): boolean {
  // Before user_info has answered, nothing is offered that may then vanish.
  if (!role) return false;
  return ORDER.indexOf(role) >= ORDER.indexOf(least);
}

/** The signed-in person's role in the current workspace, once user_info has answered. */
export function useRole(): WorkspaceRoleName | undefined {
  return useUserInfo().data?.role;
}

/**
 * Whether the screens offer a change that needs at least `least`: a viewer's change buttons are
 * not shown at all, and the gateway refuses such a change anyway (403 role_forbidden).
 */
export function useCanChange(least: WorkspaceRoleName): boolean {
  return roleAllows(useRole(), least);
}
