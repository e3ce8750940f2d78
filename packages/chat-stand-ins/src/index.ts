export * from './stand-in.ts';
