export * from './stand-in.ts';
export * from './stand-in-store.ts';
