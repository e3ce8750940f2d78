export { keptSecretKeys } from './kept-secret-keys.ts';
export { createSecretBox, generateSecretKey, type SecretBox } from './secret-box.ts';
