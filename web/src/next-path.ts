import { routePaths } from './route-paths.ts';

/**
 * Where to go after signing in: the `next` query when it is a path of this site. Anything
 * else (another origin, `//host`, a backslash trick) goes to the dashboard, so the link
 * cannot send a user off-site.
 */
export function nextPathFrom(search: URLSearchParams): string {
  const next = search.get('next');
  if (!next?.startsWith('/') || next.startsWith('//') || next.includes('\\')) {
    return routePaths.dashboard;
  }
  return next;
}
