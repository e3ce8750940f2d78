import type { AccountDeleteBody, AccountDeleted } from '@mimamori/http-api';
import { ApiError, apiRequest, errorFrom, readCookie } from './client.ts';

/** POST /api/account/delete: closes the account now; the answer says when everything is erased. */
export function deleteAccount(input: AccountDeleteBody): Promise<AccountDeleted> {
  return apiRequest('/api/account/delete', { method: 'POST', body: input });
}

/**
 * POST /api/account/export: the archive as a blob with the name the gateway gives it. A POST (with
 * the CSRF header) rather than a link, as it reads every service and is allowed a few times an hour.
 */
export async function downloadExport(): Promise<{ blob: Blob; fileName: string }> {
  const headers: Record<string, string> = { accept: 'application/zip' };
  const token = readCookie('csrf_token');
  if (token) headers['x-csrf-token'] = token;
  let response: Response;
  try {
    response = await fetch('/api/account/export', { method: 'POST', headers, credentials: 'same-origin' });
  } catch {
    throw new ApiError(0, 'network', 'errors.network');
  }
  if (!response.ok) throw await errorFrom(response);
  const name = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1];
  return { blob: await response.blob(), fileName: name ?? 'mimamori-export.zip' };
}
