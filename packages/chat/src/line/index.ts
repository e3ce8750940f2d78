export { LINE_EVENT_MAX_AGE_SECONDS, lineAdapter } from './line-adapter.ts';
export { isLoopbackHost, LINE_LIMITS, type LineMessage, lineMessages } from './line-message.ts';
export { lineRetryKey, lineSignature, validLineSignature } from './line-signature.ts';
