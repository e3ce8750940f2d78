export { teamsAdapter, teamsOutcome } from './adapter.ts';
export { TEAMS_PAYLOAD_BYTES, teamsPayload } from './card.ts';
export { checkWorkflowUrl, postingUrl, type WorkflowUrlRefusal } from './workflow-url.ts';
