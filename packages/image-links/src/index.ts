export * from './image-link.ts';
