export { fileStandInStore, STAND_IN_KEPT } from './file-store.ts';
export {
  LINE_LIMIT_MODES,
  type LineLimitMode,
  type LineStandInState,
  lineStandIn,
  lineUserId,
} from './line.ts';
export { memoryStandInStore } from './memory-store.ts';
export * from './stand-in.ts';
export {
  TELEGRAM_STAND_IN_USER,
  type TelegramStandInChat,
  type TelegramStandInState,
  type TelegramStandInUser,
  telegramStandIn,
  telegramStandInUser,
} from './telegram.ts';
