import { readdir, readFile } from 'node:fs/promises';

/**
 * Resident memory of the processes this crawler started (Chromium's browser, renderer, GPU and
 * utility processes), in bytes, read from /proc: Playwright tells no process ids of a launched
 * browser, and a renderer's memory is what runs a crawler pod out of its limit. 0 where there is
 * no /proc (not Linux).
 */
export async function browserMemoryBytes(parent = process.pid): Promise<number> {
  let entries: string[];
  try {
    entries = await readdir('/proc');
  } catch {
    return 0;
  }
  const processes = await Promise.all(
    entries.filter((entry) => /^\d+$/.test(entry)).map((pid) => readStatus(Number(pid))),
  );
  const children = new Map<number, number[]>();
  for (const status of processes) {
    if (!status) continue;
    children.set(status.parent, [...(children.get(status.parent) ?? []), status.pid]);
  }
  const rss = new Map(
    processes.flatMap((status) => (status ? [[status.pid, status.rssBytes] as const] : [])),
  );
  let total = 0;
  const queue = [...(children.get(parent) ?? [])];
  for (let pid = queue.shift(); pid !== undefined; pid = queue.shift()) {
    total += rss.get(pid) ?? 0;
    queue.push(...(children.get(pid) ?? []));
  }
  return total;
}

async function readStatus(
  pid: number,
): Promise<{ pid: number; parent: number; rssBytes: number } | undefined> {
  // A process may end between the listing and this read.
  const text = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => undefined);
  if (!text) return undefined;
  const parent = /^PPid:\s+(\d+)/m.exec(text)?.[1];
  const rssKb = /^VmRSS:\s+(\d+) kB/m.exec(text)?.[1];
  return { pid, parent: Number(parent ?? 0), rssBytes: Number(rssKb ?? 0) * 1024 };
}
