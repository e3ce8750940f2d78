import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { loadConfig, runtimeEnv } from './config.ts';
import { scaledMs } from './time-scale.ts';

const serviceEnv = z.object({
  ...runtimeEnv,
  DATABASE_URL: z.string().min(1),
  SMTP_PASSWORD: z.string().min(12),
});

describe('loadConfig', () => {
  it('applies the runtime defaults', () => {
    const config = loadConfig(serviceEnv, {
      DATABASE_URL: 'postgres://db',
      SMTP_PASSWORD: 'long-enough-secret',
    });
    expect(config).toEqual({
      LOG_LEVEL: 'info',
      OPS_PORT: 0,
      GRPC_PORT: 0,
      GRPC_HOST: '127.0.0.1',
      SHUTDOWN_TIMEOUT_MS: 8000,
      MIMAMORI_TIME_SCALE: 1,
      DATABASE_URL: 'postgres://db',
      SMTP_PASSWORD: 'long-enough-secret',
    });
  });

  it('coerces numbers from the environment strings', () => {
    const config = loadConfig(z.object(runtimeEnv), { GRPC_PORT: '50051', SHUTDOWN_TIMEOUT_MS: '3000' });
    expect(config.GRPC_PORT).toBe(50051);
    expect(config.SHUTDOWN_TIMEOUT_MS).toBe(3000);
    expect(config.OTEL_EXPORTER_OTLP_ENDPOINT).toBeUndefined();
  });

  it('names every bad or missing variable in one error', () => {
    const load = () =>
      loadConfig(serviceEnv, {
        LOG_LEVEL: 'loud',
        GRPC_PORT: 'seventy',
        OTEL_EXPORTER_OTLP_ENDPOINT: 'not a url',
        SMTP_PASSWORD: 'hunter2',
      });
    expect(load).toThrowError(/Invalid configuration \(5 problem\(s\)\)/);
    const message = captureMessage(load);
    expect(message).toMatch(/^ {2}LOG_LEVEL: /m);
    expect(message).toMatch(/^ {2}GRPC_PORT: /m);
    expect(message).toMatch(/^ {2}OTEL_EXPORTER_OTLP_ENDPOINT: /m);
    expect(message).toMatch(/^ {2}DATABASE_URL: missing$/m);
    expect(message).toMatch(/^ {2}SMTP_PASSWORD: .*12/m);
  });

  it('never prints the values, which may be secrets', () => {
    const message = captureMessage(() =>
      loadConfig(serviceEnv, {
        DATABASE_URL: 'postgres://u:pa55word@db',
        SMTP_PASSWORD: 'hunter2',
        GRPC_PORT: '99999',
      }),
    );
    expect(message).toContain('SMTP_PASSWORD');
    expect(message).toContain('GRPC_PORT');
    expect(message).not.toContain('hunter2');
    expect(message).not.toContain('99999');
    expect(message).not.toContain('pa55word');
  });
});

describe('the time scale', () => {
  const env = { DATABASE_URL: 'postgres://db', SMTP_PASSWORD: 'long-enough-secret' };

  it('is real time unless told', () => {
    expect(loadConfig(serviceEnv, { ...env, NODE_ENV: 'production' }).MIMAMORI_TIME_SCALE).toBe(1);
  });

  it('speeds time up in test runs', () => {
    expect(
      loadConfig(serviceEnv, { ...env, NODE_ENV: 'test', MIMAMORI_TIME_SCALE: '30' }).MIMAMORI_TIME_SCALE,
    ).toBe(30);
  });

  it.each([['production'], ['development'], [undefined]])(
    'is refused at start with NODE_ENV=%s',
    (nodeEnv) => {
      const message = captureMessage(() =>
        loadConfig(serviceEnv, {
          ...env,
          MIMAMORI_TIME_SCALE: '30',
          ...(nodeEnv ? { NODE_ENV: nodeEnv } : {}),
        }),
      );
      expect(message).toMatch(/^ {2}MIMAMORI_TIME_SCALE: .*tests only.*NODE_ENV=test/m);
    },
  );

  it('refuses a scale that is not a whole number from 1 to 600', () => {
    for (const scale of ['0', '0.5', '601', 'fast']) {
      expect(
        captureMessage(() =>
          loadConfig(serviceEnv, { ...env, NODE_ENV: 'test', MIMAMORI_TIME_SCALE: scale }),
        ),
      ).toMatch(/^ {2}MIMAMORI_TIME_SCALE: /m);
    }
  });
});

describe('scaledMs', () => {
  it('divides a wait by the scale, never below its floor', () => {
    expect(scaledMs(60_000, 1)).toBe(60_000);
    expect(scaledMs(60_000, 30)).toBe(2_000);
    expect(scaledMs(60_000, 30, 10_000)).toBe(10_000);
    expect(scaledMs(60_000, 1, 10_000)).toBe(60_000);
  });
});

function captureMessage(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('expected a configuration error');
}
