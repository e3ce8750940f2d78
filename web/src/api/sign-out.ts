import { apiRequest } from './client.ts';

/** GET /api/signout ends the session (the gateway clears the session cookie). */
export function signOut(): Promise<void> {
  return apiRequest<void>('/api/signout');
}
