export {
  createWebhookPoster,
  ownReceiverUrl,
  type WebhookAnswer,
  type WebhookPoster,
  type WebhookPosterOptions,
  type WebhookRefusal,
} from './post-webhook.ts';
export {
  DEFAULT_TOLERANCE_SECONDS,
  newWebhookSecret,
  SIGNATURE_HEADER,
  signatureHeader,
  type Verification,
  verifySignature,
} from './signature.ts';
