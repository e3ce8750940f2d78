import { createHmac, timingSafeEqual } from 'node:crypto';

/** Slack's window: a request whose timestamp is further than this from now is refused (docs.slack.dev "Verifying requests"). */
export const SLACK_SIGNATURE_WINDOW_SECONDS = 5 * 60;

/** `v0=` + hex HMAC-SHA256 of `v0:{timestamp}:{raw body}` under the app's signing secret. */
export function slackSignature(
  signingSecret: string,
  timestamp: number | string,
  rawBody: Buffer | string,
): string {
  const mac = createHmac('sha256', signingSecret);
  mac.update(`v0:${timestamp}:`);
  mac.update(rawBody);
  return `v0=${mac.digest('hex')}`;
}

export type SignatureVerdict = { ok: true } | { ok: false; reason: string };

/**
 * Checks a request's Slack signature, its timestamp's freshness and that this very signature was
 * not seen before. The window alone would let a captured request be played again for five
 * minutes (an `app_uninstalled` replayed after a reinstall would break the new link), so the
 * signatures seen inside the window are remembered until it closes; a signature older than the
 * window is refused as stale, so the memory stays bounded. It is one process's memory: with
 * several gateways a replay reaching another one within five minutes is not caught there.
 */
export class SlackRequestVerifier {
  private readonly seen = new Map<string, number>();

  verify(
    signingSecret: string,
    headers: Readonly<Record<string, string | undefined>>,
    rawBody: Buffer,
    nowSeconds: number,
  ): SignatureVerdict {
    const signature = header(headers, 'x-slack-signature');
    const timestampText = header(headers, 'x-slack-request-timestamp');
    if (!signature || !timestampText || !/^\d+$/.test(timestampText)) {
      return { ok: false, reason: 'no Slack signature' };
    }
    const timestamp = Number(timestampText);
    if (Math.abs(nowSeconds - timestamp) > SLACK_SIGNATURE_WINDOW_SECONDS) {
      return { ok: false, reason: 'stale Slack request timestamp' };
    }
    const expected = Buffer.from(slackSignature(signingSecret, timestampText, rawBody));
    const given = Buffer.from(signature);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      return { ok: false, reason: 'bad Slack signature' };
    }
    this.forgetBefore(nowSeconds - SLACK_SIGNATURE_WINDOW_SECONDS);
    if (this.seen.has(signature)) return { ok: false, reason: 'replayed Slack request' };
    this.seen.set(signature, timestamp);
    return { ok: true };
  }

  private forgetBefore(oldest: number): void {
    for (const [signature, timestamp] of this.seen) {
      if (timestamp < oldest) this.seen.delete(signature);
    }
  }
}

function header(headers: Readonly<Record<string, string | undefined>>, name: string): string | undefined {
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() === name) return value;
  }
  return undefined;
}
