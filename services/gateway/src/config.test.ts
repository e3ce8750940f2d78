import { loadConfig } from '@mimamori/runtime';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { gatewayEnv } from './config.ts';

const load = (env: Record<string, string>) =>
  loadConfig(z.object(gatewayEnv), { ACCOUNT_GRPC_ADDR: 'account:50051', ...env });

describe('the gateway’s image-link key', () => {
  it('is read as 32 bytes, and absent when unset or empty', () => {
    const key = Buffer.alloc(32, 5);
    expect(load({ IMAGE_LINK_KEY: key.toString('base64') }).IMAGE_LINK_KEY?.equals(key)).toBe(true);
    expect(load({}).IMAGE_LINK_KEY).toBeUndefined();
    expect(load({ IMAGE_LINK_KEY: '' }).IMAGE_LINK_KEY).toBeUndefined();
  });

  it('stops the start, naming the variable, when it is not the base64 of 32 bytes', () => {
    expect(() => load({ IMAGE_LINK_KEY: Buffer.alloc(16).toString('base64') })).toThrow(
      /IMAGE_LINK_KEY: IMAGE_LINK_KEY must be the base64 of 32 random bytes/,
    );
  });
});
