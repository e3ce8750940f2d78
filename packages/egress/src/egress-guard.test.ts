import { describe, expect, it } from 'vitest';
import { type AllowedPages, createEgressGuard } from './egress-guard.ts';
import { RefusedAddressError } from './refused-address-error.ts';

const SHOP: AllowedPages = { origin: 'http://127.0.0.1:8080', paths: ['/mock/ec', '/assets/'] };

describe('allowed pages (the single-process demo shop)', () => {
  const guard = createEgressGuard({ allowPages: () => [SHOP] });

  it.each([
    'http://127.0.0.1:8080/mock/ec',
    'http://127.0.0.1:8080/mock/ec?lang=en',
    'http://127.0.0.1:8080/assets/index-abc123.js',
  ])('lets %s through to the loopback address it names', async (url) => {
    await expect(guard.checkUrl(url)).resolves.toEqual({ address: '127.0.0.1', family: 4 });
  });

  it.each([
    // Everything else of the product: the local mailbox holds every user's sign-in links.
    'http://127.0.0.1:8080/dev/mailbox',
    'http://127.0.0.1:8080/api/user_info',
    'http://127.0.0.1:8080/',
    'http://127.0.0.1:8080/mock/ec/more',
    'http://127.0.0.1:8080/mock/ecx',
    'http://127.0.0.1:8080/assets',
    'http://127.0.0.1:8080/mock/ec/../../dev/mailbox',
    'http://127.0.0.1:8080/assets/..%2fdev/mailbox',
    'http://127.0.0.1:8080/assets/%2e%2e/dev/mailbox',
    // Same path on another port, scheme or host of the machine.
    'http://127.0.0.1:8081/mock/ec',
    'https://127.0.0.1:8080/mock/ec',
    'http://127.0.0.2:8080/mock/ec',
    'http://[::1]:8080/mock/ec',
  ])('refuses %s', async (url) => {
    await expect(guard.checkUrl(url)).rejects.toBeInstanceOf(RefusedAddressError);
  });

  it('refuses the origin when only host and port are known (a tunnel carries any path)', async () => {
    await expect(guard.check('127.0.0.1', 8080)).rejects.toBeInstanceOf(RefusedAddressError);
  });

  it('reads the allowed pages at each request, so the product can name its port once it listens', async () => {
    let pages: AllowedPages[] = [];
    const lateGuard = createEgressGuard({ allowPages: () => pages });
    await expect(lateGuard.checkUrl('http://127.0.0.1:8080/mock/ec')).rejects.toBeInstanceOf(
      RefusedAddressError,
    );
    pages = [SHOP];
    await expect(lateGuard.checkUrl('http://127.0.0.1:8080/mock/ec')).resolves.toMatchObject({
      address: '127.0.0.1',
    });
  });
});

describe('spellings of the machine itself', () => {
  const guard = createEgressGuard();

  it.each([
    'http://localhost./',
    'http://LOCALHOST:8080/',
    'http://localhost..:8080/',
    'http://shop.localhost/',
    'http://metadata.google.internal/computeMetadata/v1/',
    'http://127.1/',
    'http://0x7f000001/',
    'http://2130706433/',
    'http://017700000001/',
    'http://[::ffff:127.0.0.1]/',
    'http://[::ffff:7f00:1]/',
    'http://0.0.0.0/',
    'http://0/',
    'http://[::]/',
  ])('refuses %s without asking a resolver', async (url) => {
    await expect(guard.checkUrl(url)).rejects.toBeInstanceOf(RefusedAddressError);
  });

  it('does not tell what a refused name resolved to', async () => {
    const refusal = await guard.checkUrl('http://localhost./').catch((error: Error) => error.message);
    expect(refusal).toContain('localhost');
    expect(refusal).not.toMatch(/127\.0\.0\.1|::1|loopback/);
  });
});
