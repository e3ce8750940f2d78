import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SIGNATURE_HEADER, verifySignature } from '@mimamori/webhook/signature';

export interface ReceivedDelivery {
  path: string;
  body: string;
  signature: string;
  /** Whether the signature verified with the secret set for the path when it arrived. */
  verified: boolean;
  status: number;
}

export interface WebhookReceiver {
  /** `http://127.0.0.1:<port>`; `hostPort` is what a test lets through the SSRF guard. */
  url: string;
  hostPort: string;
  received: ReceivedDelivery[];
  /** The signing secret a path's deliveries must verify with; others are answered 400. */
  setSecret(path: string, secret: string): void;
  /** Statuses the next deliveries to `path` get, one each, before it answers 200 again. */
  failNext(path: string, statuses: number[]): void;
  waitFor(path: string, count: number, timeoutMs?: number): Promise<ReceivedDelivery[]>;
  close(): Promise<void>;
}

/**
 * A customer's webhook endpoint as docs/webhooks.md tells them to write it: it verifies the
 * Mimamori-Signature of every delivery against the raw body and refuses (400) one that does not
 * verify, so a test sees both what arrived and whether it would have been trusted.
 */
export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const secrets = new Map<string, string>();
  const failures = new Map<string, number[]>();
  const received: ReceivedDelivery[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = new URL(request.url ?? '/', 'http://receiver').pathname;
      const body = Buffer.concat(chunks).toString('utf8');
      const signature = String(request.headers[SIGNATURE_HEADER.toLowerCase()] ?? '');
      const secret = secrets.get(path);
      const verified = secret !== undefined && verifySignature(secret, signature, body).ok;
      const planned = failures.get(path)?.shift();
      const status = !verified ? 400 : (planned ?? 200);
      received.push({ path, body, signature, verified, status });
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(verified ? { received: true } : { error: 'signature does not verify' }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    hostPort: `127.0.0.1:${port}`,
    received,
    setSecret: (path, secret) => secrets.set(path, secret),
    failNext: (path, statuses) => failures.set(path, [...statuses]),
    async waitFor(path, count, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const got = received.filter((delivery) => delivery.path === path);
        if (got.length >= count) return got;
        if (Date.now() > deadline)
          throw new Error(`receiver got ${got.length} of ${count} deliveries to ${path}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
