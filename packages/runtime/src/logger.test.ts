import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from './logger.ts';
import { startTelemetry, type Telemetry } from './telemetry.ts';
import { traced } from './traced.ts';

function captureLines() {
  const lines: Record<string, unknown>[] = [];
  return { lines, destination: { write: (line: string) => void lines.push(JSON.parse(line)) } };
}

describe('createLogger', () => {
  let telemetry: Telemetry | undefined;
  afterEach(async () => {
    await telemetry?.shutdown();
    telemetry = undefined;
  });

  it('writes readable lines, not JSON, when asked to be pretty', () => {
    const lines: string[] = [];
    const destination = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const logger = createLogger({ service: 'mimamori', pretty: true, destination });
    logger.info({ targetId: 't1', password: 'hunter2' }, 'check scheduled');
    const text = lines.join('');
    expect(() => JSON.parse(text)).toThrow();
    expect(text).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: check scheduled\n/);
    expect(text).toContain('targetId: "t1"');
    expect(text).toContain('[redacted]');
    expect(text).not.toContain('hunter2');
  });

  it('puts the service on every line and no trace ids outside a span', () => {
    const { lines, destination } = captureLines();
    createLogger({ service: 'account', destination }).info('hello');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ service: 'account', msg: 'hello', level: 30 });
    expect(lines[0]).not.toHaveProperty('trace_id');
  });

  it('adds trace_id and span_id of the active span', async () => {
    telemetry = startTelemetry({ serviceName: 'logger-test' });
    const { lines, destination } = captureLines();
    const logger = createLogger({ service: 'account', destination });
    const ids = await traced('work', async (span) => {
      await Promise.resolve();
      logger.info('inside');
      return span.spanContext();
    });
    expect(ids.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(lines[0]).toMatchObject({ msg: 'inside', trace_id: ids.traceId, span_id: ids.spanId });
  });

  it('redacts secrets at the top level and in nested objects', () => {
    const { lines, destination } = captureLines();
    createLogger({ service: 'account', destination }).info(
      {
        password: 'hunter2',
        request: { sessionToken: 'tok-123', headers: { cookie: 'sid=abc', authorization: 'Bearer xyz' } },
        target: { webhook_url: 'https://discord.example/api/webhooks/1/secret' },
        email: 'user@example.com',
      },
      'signup',
    );
    const line = JSON.stringify(lines[0]);
    for (const secret of ['hunter2', 'tok-123', 'sid=abc', 'Bearer xyz', 'webhooks/1/secret']) {
      expect(line).not.toContain(secret);
    }
    expect(line).toContain('user@example.com');
    expect(lines[0]).toMatchObject({ password: '[redacted]' });
  });

  it('respects the level', () => {
    const { lines, destination } = captureLines();
    const logger = createLogger({ service: 'account', level: 'warn', destination });
    logger.info('dropped');
    logger.warn('kept');
    expect(lines.map((line) => line.msg)).toEqual(['kept']);
  });
});
