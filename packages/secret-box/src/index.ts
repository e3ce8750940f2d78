export { createSecretBox, generateSecretKey, type SecretBox } from './secret-box.ts';
