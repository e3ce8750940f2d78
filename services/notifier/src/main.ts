import { openBlobStore } from '@mimamori/blob-store';
import { chatSettingsFromEnv } from '@mimamori/chat';
import { accountV1, chatLinkV1 } from '@mimamori/contracts';
import { parseImageLinkKey } from '@mimamori/image-links';
import { openMailTransport } from '@mimamori/mail';
import { createGrpcClient } from '@mimamori/runtime';
import { createSecretBox } from '@mimamori/secret-box';
import { runServiceProcess } from '@mimamori/service-host';
import { accountProfileClient } from './clients/account-profile-client.ts';
import { chatLinkBreaker } from './clients/chat-link-client.ts';
import { notifierEnv } from './config.ts';
import { systemClock } from './domain/site-quiet-hours.ts';
import { createNotifierService } from './service.ts';

await runServiceProcess('notifier', notifierEnv, async ({ config, db, logger, metrics }) => {
  const blobUrl =
    config.BLOB_URL ??
    `${config.NATS_URL.replace(/\/+$/, '')}/${config.BUS_NAMESPACE ? `${config.BUS_NAMESPACE}_` : ''}mimamori_blobs`;
  return createNotifierService({
    db,
    logger,
    mail: openMailTransport(config.SMTP_URL, config.MAIL_FROM),
    secretBox: createSecretBox(config.SECRET_KEYS),
    publicUrl: () => config.PUBLIC_URL,
    updates: {
      profiles: accountProfileClient(() =>
        createGrpcClient(accountV1.AccountServiceClient, config.ACCOUNT_GRPC_ADDR),
      ),
      blobs: await openBlobStore(blobUrl),
      discordApiBase: config.DISCORD_API_BASE,
      webhookEgressAllow: config.WEBHOOK_EGRESS_ALLOW.split(',').filter(Boolean),
      chat: {
        settings: chatSettingsFromEnv(config),
        links: chatLinkBreaker(() =>
          createGrpcClient(chatLinkV1.ChatLinkServiceClient, config.ACCOUNT_GRPC_ADDR),
        ),
        // Stops the start naming the variable when it is set but not 32 bytes.
        imageLinkKey: config.IMAGE_LINK_KEY ? parseImageLinkKey(config.IMAGE_LINK_KEY) : null,
      },
    },
    deliveryClaimMs: config.DELIVERY_CLAIM_SECONDS * 1000,
    clock: systemClock(config.MIMAMORI_TIME_SCALE),
    metrics,
  });
});
