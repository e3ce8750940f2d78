export * from './line.ts';
export * from './memory-store.ts';
export * from './stand-in.ts';
export * from './telegram.ts';
