import { describe, expect, it } from 'vitest';
import { createLogger } from './logger.ts';
import { createShutdown } from './shutdown.ts';

function setup(timeoutMs = 5000) {
  const lines: Record<string, unknown>[] = [];
  const logger = createLogger({
    service: 'test',
    destination: { write: (line) => void lines.push(JSON.parse(line)) },
  });
  return { lines, shutdown: createShutdown({ logger, timeoutMs }) };
}

describe('createShutdown', () => {
  it('stops in reverse registration order, once, and logs no error when clean', async () => {
    const { shutdown, lines } = setup();
    const stopped: string[] = [];
    for (const name of ['database', 'grpc', 'consumers']) {
      shutdown.register(name, async () => {
        stopped.push(name);
      });
    }
    expect(shutdown.isShuttingDown()).toBe(false);
    const first = shutdown.run('test');
    expect(shutdown.isShuttingDown()).toBe(true);
    await Promise.all([first, shutdown.run('again')]);
    expect(stopped).toEqual(['consumers', 'grpc', 'database']);
    expect(lines.filter((line) => (line.level as number) >= 50)).toEqual([]);
    expect(lines.at(-1)).toMatchObject({ msg: 'shutdown complete', outcome: 'clean' });
  });

  it('keeps stopping the rest when one step fails', async () => {
    const { shutdown, lines } = setup();
    const stopped: string[] = [];
    shutdown.register('database', async () => void stopped.push('database'));
    shutdown.register('grpc', async () => {
      throw new Error('port stuck');
    });
    await shutdown.run('test');
    expect(stopped).toEqual(['database']);
    expect(lines).toContainEqual(expect.objectContaining({ msg: 'stop failed', step: 'grpc' }));
    expect(lines.at(-1)).toMatchObject({ msg: 'shutdown complete', outcome: 'failed' });
  });

  it('gives up on a step that never finishes after the timeout', async () => {
    const { shutdown, lines } = setup(20);
    shutdown.register('stuck', () => new Promise<void>(() => {}));
    await shutdown.run('test');
    expect(lines.at(-1)).toMatchObject({ msg: 'shutdown timed out' });
  });

  it('stops at once what registers after shutdown began', async () => {
    const { shutdown } = setup();
    await shutdown.run('test');
    let stopped = false;
    shutdown.register('late', async () => {
      stopped = true;
    });
    expect(stopped).toBe(true);
  });
});
