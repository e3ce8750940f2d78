import { status } from '@grpc/grpc-js';
import { describe, expect, it } from 'vitest';
import { previewCrawlers } from './preview-crawlers.ts';

// Which crawler a session id may send the gateway to; nothing here is dialed (gRPC connects on
// the first call), so the addresses need not answer.
describe('previewCrawlers', () => {
  const notFound = { code: status.NOT_FOUND, details: 'preview_not_found' };

  it('sends a bare id to the opening client and an id naming a crawler of the target to that crawler', async () => {
    const crawlers = previewCrawlers('dns:///localhost:50551');
    try {
      expect(await crawlers.holding('0b6f')).toBe(crawlers.opening);
      const held = await crawlers.holding('0b6f@127.0.0.1:50551');
      expect(held).not.toBe(crawlers.opening);
      // One client per crawler, reused.
      expect(await crawlers.holding('1c7a@127.0.0.1:50551')).toBe(held);
    } finally {
      crawlers.close();
    }
  });

  it('answers an id naming any other address or port as an unknown session', async () => {
    const crawlers = previewCrawlers('localhost:50551');
    try {
      for (const forged of ['0b6f@10.0.0.7:50551', '0b6f@127.0.0.1:50552', '0b6f@metadata.internal:80'])
        await expect(crawlers.holding(forged)).rejects.toMatchObject(notFound);
    } finally {
      crawlers.close();
    }
  });

  it('takes the crawlers of an ipv4: or ipv6: list as they are written', async () => {
    const listed = previewCrawlers('ipv4:127.0.0.1:50551,127.0.0.2:50551');
    const six = previewCrawlers('ipv6:[::1]:50551');
    try {
      expect(await listed.holding('a@127.0.0.2:50551')).not.toBe(listed.opening);
      await expect(listed.holding('a@127.0.0.3:50551')).rejects.toMatchObject(notFound);
      expect(await six.holding('a@[::1]:50551')).not.toBe(six.opening);
    } finally {
      listed.close();
      six.close();
    }
  });
});
