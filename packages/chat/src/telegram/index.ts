export {
  TELEGRAM_START_CODE,
  type TelegramAdapterOptions,
  telegramAdapter,
} from './telegram-adapter.ts';
export {
  escapeHtml,
  fitsTelegramPhoto,
  TELEGRAM_LIMITS,
  telegramPhotos,
  telegramText,
} from './telegram-message.ts';
