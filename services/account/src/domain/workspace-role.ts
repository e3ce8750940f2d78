/**
 * docs/product.md#workspaces: the roles a member of a workspace has, from least to most. Each
 * includes what the roles before it may do: a viewer reads; an editor also manages sites; an admin
 * also members and channels; the owner also billing, tokens and the workspace itself.
 */
export const WORKSPACE_ROLES = ['viewer', 'editor', 'admin', 'owner'] as const;
export type WorkspaceRole = (typeof WORKSPACE_ROLES)[number];

export function isWorkspaceRole(value: unknown): value is WorkspaceRole {
  return typeof value === 'string' && (WORKSPACE_ROLES as readonly string[]).includes(value);
}

/** Whether `role` may do what needs at least `least`. */
export function roleAllows(role: WorkspaceRole, least: WorkspaceRole): boolean {
  return WORKSPACE_ROLES.indexOf(role) >= WORKSPACE_ROLES.indexOf(least);
}
