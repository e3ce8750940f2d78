import { existsSync } from 'node:fs';

/**
 * Debian's headless shell first: the same engine without the UI layer, about 3× the checks per
 * second of the full binary on this machine class. Never a downloaded browser.
 * CHROMIUM_PATH overrides the search.
 */
const CANDIDATES = [
  '/usr/bin/chromium-headless-shell',
  '/usr/lib/chromium/chromium-headless-shell',
  '/usr/bin/chromium',
];

export function chromiumExecutablePath(): string {
  const path = process.env.CHROMIUM_PATH ?? CANDIDATES.find((candidate) => existsSync(candidate));
  if (!path) {
    throw new Error(`no system Chromium found (looked at ${CANDIDATES.join(', ')}); set CHROMIUM_PATH`);
  }
  return path;
}

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  // Without a GPU, compositing runs in software: in the browser process instead of a GPU
  // process of its own, and without loading GL emulation (SwiftShader) for it, the two together
  // about 20 MB PSS less here. Screenshots are unaffected.
  '--in-process-gpu',
  '--disable-software-rasterizer',
  // QUIC is UDP and would not pass through the guarded HTTP proxy.
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  // WebRTC could otherwise send UDP around the proxy.
  '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
  // Keeps iframes in their page's renderer, so one CDP session reaches every frame to read
  // areas in an isolated world; each check already has its own context.
  '--disable-site-isolation-trials',
  '--disable-features=IsolateOrigins,site-per-process,BackForwardCache,ProactivelySwapBrowsingInstance',
];
