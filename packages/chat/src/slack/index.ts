export { SLACK_SCOPES, slackAdapter } from './adapter.ts';
export { SLACK_LIMITS, slackLayout } from './layout.ts';
export { SLACK_SIGNATURE_WINDOW_SECONDS, slackSignature } from './signature.ts';
