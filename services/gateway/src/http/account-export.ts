import type { BlobStore } from '@mimamori/blob-store';
import { accountV1, diffV1, filingsV1, invoiceV1, targetV1, webhookV1 } from '@mimamori/contracts';
import { unary } from '@mimamori/runtime';
import { strToU8, type Zippable, zipSync } from 'fflate';
import type { SessionCaller } from './session-caller.ts';

/** The services an export reads from; a part whose service is not there is left out. */
export interface ExportSources {
  account: accountV1.AccountServiceClient;
  webhooks?: webhookV1.WebhookServiceClient | undefined;
  invoices?: invoiceV1.InvoiceServiceClient | undefined;
  target?: targetV1.TargetServiceClient | undefined;
  history?: { client: diffV1.HistoryServiceClient; blobs: BlobStore } | undefined;
  filings?: filingsV1.FilingsServiceClient | undefined;
}

const PAGE = 100;
const FORMAT = 'mimamori-export/1';

/**
 * Everything the user has, read through each owning service's gRPC API with the user's own session
 * or id, as one ZIP (docs/product.md#your-data): `account.json` (settings, addresses, webhooks
 * without their secrets, invoices), `follows.json`, and per site `sites/<no>-<id>/site.json` (every
 * setting), `history.json` (every check and update with its diffs) and `images/` (each update's
 * before and after picture, the registration screenshots). Each JSON is the services' own messages
 * in their JSON form, so the export says what the product stores, in its words.
 */
export async function exportArchive(
  sources: ExportSources,
  sessionToken: string,
  { caller, timeZone }: SessionCaller,
  now: Date,
): Promise<Uint8Array> {
  const userId = caller.userId;
  const files: Zippable = {};
  const json = (path: string, value: unknown) => {
    files[path] = strToU8(`${JSON.stringify(value, null, 2)}\n`);
  };
  const images = sources.history?.blobs;
  const picture = async (folder: Zippable, name: string, key: string) => {
    if (!images || key === '') return '';
    const blob = await images.get(key);
    if (!blob) return '';
    const file = `${name}.${extension(blob.contentType ?? key)}`;
    folder[file] = blob.data;
    return `images/${file}`;
  };

  const account = await unary(sources.account, 'getAccount', { sessionToken });
  json('account.json', {
    format: FORMAT,
    exported_at: now.toISOString(),
    account: accountV1.GetAccountResponse.toJSON(account),
    webhooks: sources.webhooks
      ? webhookV1.ListWebhooksResponse.toJSON(await unary(sources.webhooks, 'listWebhooks', { sessionToken }))
      : null,
    invoices: sources.invoices
      ? invoiceV1.ListInvoicesResponse.toJSON(await unary(sources.invoices, 'listInvoices', { sessionToken }))
      : null,
  });
  if (sources.filings)
    json(
      'follows.json',
      filingsV1.ListFollowsResponse.toJSON(await unary(sources.filings, 'listFollows', { userId })),
    );

  if (sources.target) {
    const { rows } = await unary(sources.target, 'listTargets', { caller });
    for (const row of rows) {
      const folder = `sites/${String(row.no).padStart(4, '0')}-${row.id}`;
      const site = await unary(sources.target, 'getTarget', { caller, targetId: row.id });
      json(`${folder}/site.json`, targetV1.GetTargetResponse.toJSON(site));
      if (!sources.history) continue;
      const pictures: Zippable = {};
      const entries: unknown[] = [];
      let cursor = '';
      do {
        const page = await unary(sources.history.client, 'listHistory', {
          userId,
          targetId: row.id,
          filter: 'all',
          cursor,
          direction: 'older',
          pageSize: PAGE,
          day: '',
          timeZone,
        });
        for (const entry of page.entries) {
          const update = entry.update;
          entries.push({
            ...(diffV1.HistoryEntry.toJSON(entry) as object),
            images: update
              ? {
                  before: await picture(
                    pictures,
                    `${update.updateId}-before`,
                    update.beforeScreenshotBlobKey,
                  ),
                  after: await picture(pictures, `${update.updateId}-after`, update.afterScreenshotBlobKey),
                }
              : null,
          });
        }
        cursor = page.olderCursor;
      } while (cursor !== '');
      json(`${folder}/history.json`, entries);
      const registration = await unary(sources.history.client, 'getRegistrationData', {
        userId,
        targetId: row.id,
      });
      json(`${folder}/registration.json`, {
        ...(diffV1.GetRegistrationDataResponse.toJSON(registration) as object),
        images: {
          page: await picture(pictures, 'registration-page', registration.pageScreenshotBlobKey),
          areas: await Promise.all(
            registration.areas.map((area) =>
              picture(pictures, `registration-area-${area.areaId}`, area.screenshotBlobKey),
            ),
          ),
        },
      });
      if (Object.keys(pictures).length > 0) files[`${folder}/images`] = pictures;
    }
  }
  // Pictures are compressed already; the JSON compresses well.
  return zipSync(files, { level: 6, mtime: now });
}

function extension(typeOrKey: string): string {
  if (typeOrKey.includes('webp')) return 'webp';
  if (typeOrKey.includes('png')) return 'png';
  if (typeOrKey.includes('jpeg') || typeOrKey.includes('jpg')) return 'jpg';
  return 'bin';
}
