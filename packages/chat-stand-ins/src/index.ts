export { chatworkStandIn } from './chatwork.ts';
export { fileStandInStore, STAND_IN_KEPT } from './file-store.ts';
export { memoryStandInStore } from './memory-store.ts';
export * from './stand-in.ts';
