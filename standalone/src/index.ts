export { type Standalone, type StandaloneOptions, startStandalone } from './start-standalone.ts';
