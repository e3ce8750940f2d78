export * from './adapters.ts';
export * from './chatwork/index.ts';
export * from './port.ts';
export * from './settings.ts';
export * from './slack/index.ts';
export * from './teams/index.ts';
