export * from './image-size.ts';
export * from './line/index.ts';
export * from './port.ts';
export * from './telegram/index.ts';
