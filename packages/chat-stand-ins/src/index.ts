export { fileStandInStore, STAND_IN_KEPT } from './file-store.ts';
export { memoryStandInStore } from './memory-store.ts';
export { SLACK_STAND_IN_CHANNELS, SLACK_STAND_IN_TEAM, slackStandIn } from './slack.ts';
export * from './stand-in.ts';
export { teamsStandIn } from './teams.ts';
