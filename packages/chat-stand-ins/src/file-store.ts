import { appendFile, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { StandInRecord, StandInStore } from './stand-in.ts';

/** Records kept per platform; the oldest go first. A page of a hundred is all a person reads. */
export const STAND_IN_KEPT = 100;

/** What one line of a platform's records.jsonl holds: the record, its files' bytes kept beside it. */
interface RecordLine extends Omit<StandInRecord, 'files'> {
  files: ReadonlyArray<{ filename: string; contentType: string; file: string }>;
}

/**
 * The stand-ins' store in the single-process product's data folder, so /dev/<platform> shows the
 * same messages after a restart: per platform (`<dir>/<platform>/`) an append-only
 * `records.jsonl`, rewritten to the newest 100 once it holds twice that, each record's pictures
 * as files under `files/`, and the platform's small state as `state.json`. Each platform's
 * writes go one after another; one process owns the folder.
 */
export function fileStandInStore(dir: string): StandInStore {
  const platforms = new Map<string, Promise<PlatformFiles>>();
  const open = (platform: string) => {
    let opened = platforms.get(platform);
    if (!opened) {
      opened = PlatformFiles.open(join(dir, folderName(platform)));
      platforms.set(platform, opened);
    }
    return opened;
  };
  return {
    add: async (platform, record) => (await open(platform)).add(record),
    list: async (platform) => (await open(platform)).list(),
    readState: async (platform, fallback) => (await open(platform)).readState(fallback),
    writeState: async (platform, state) => (await open(platform)).writeState(state),
  };
}

class PlatformFiles {
  /** Newest last, as the file holds them. */
  #lines: RecordLine[];
  #linesInFile: number;
  #queue: Promise<unknown> = Promise.resolve();

  private constructor(
    private readonly dir: string,
    lines: RecordLine[],
  ) {
    this.#lines = lines.slice(-STAND_IN_KEPT);
    this.#linesInFile = lines.length;
  }

  static async open(dir: string): Promise<PlatformFiles> {
    await mkdir(join(dir, 'files'), { recursive: true });
    const text = await readFile(join(dir, 'records.jsonl'), 'utf8').catch(() => '');
    const lines: RecordLine[] = [];
    for (const line of text.split('\n')) {
      if (!line.trim()) continue;
      // A line cut short by a crash mid-append is skipped; the rest are whole.
      try {
        lines.push(JSON.parse(line) as RecordLine);
      } catch {}
    }
    return new PlatformFiles(dir, lines);
  }

  add(record: Omit<StandInRecord, 'id'>): Promise<StandInRecord> {
    return this.#serial(async () => {
      const id = (this.#lines.at(-1)?.id ?? 0) + 1;
      const files = await Promise.all(
        record.files.map(async (file, index) => {
          const name = `${id}-${index}`;
          await writeFile(join(this.dir, 'files', name), file.data);
          return { filename: file.filename, contentType: file.contentType, file: name };
        }),
      );
      const line: RecordLine = { id, at: record.at, chat: record.chat, body: record.body, files };
      await appendFile(join(this.dir, 'records.jsonl'), `${JSON.stringify(line)}\n`);
      this.#lines.push(line);
      this.#linesInFile += 1;
      const dropped = this.#lines.splice(0, Math.max(0, this.#lines.length - STAND_IN_KEPT));
      for (const old of dropped) {
        for (const file of old.files) await rm(join(this.dir, 'files', file.file), { force: true });
      }
      if (this.#linesInFile >= 2 * STAND_IN_KEPT) await this.#compact();
      return { ...record, id };
    });
  }

  list(): Promise<StandInRecord[]> {
    return this.#serial(async () => {
      const records: StandInRecord[] = [];
      for (const line of [...this.#lines].reverse()) {
        const files = await Promise.all(
          line.files.map(async (file) => ({
            filename: file.filename,
            contentType: file.contentType,
            data: await readFile(join(this.dir, 'files', file.file)).catch(() => Buffer.alloc(0)),
          })),
        );
        records.push({ id: line.id, at: line.at, chat: line.chat, body: line.body, files });
      }
      return records;
    });
  }

  readState<T>(fallback: T): Promise<T> {
    return this.#serial(async () => {
      const text = await readFile(join(this.dir, 'state.json'), 'utf8').catch(() => null);
      return text === null ? fallback : (JSON.parse(text) as T);
    });
  }

  writeState<T>(state: T): Promise<void> {
    return this.#serial(() => replaceFile(join(this.dir, 'state.json'), JSON.stringify(state)));
  }

  /** Rewrites records.jsonl with only the kept records, so the file stays bounded. */
  async #compact(): Promise<void> {
    await replaceFile(
      join(this.dir, 'records.jsonl'),
      this.#lines.map((line) => `${JSON.stringify(line)}\n`).join(''),
    );
    this.#linesInFile = this.#lines.length;
  }

  #serial<T>(work: () => Promise<T>): Promise<T> {
    const run = this.#queue.then(work, work);
    this.#queue = run.catch(() => undefined);
    return run;
  }
}

/** Written beside, then renamed over: a crash leaves the old file or the new one, never half. */
async function replaceFile(file: string, text: string): Promise<void> {
  await writeFile(`${file}.tmp`, text);
  await rename(`${file}.tmp`, file);
}

/** A platform's folder name: its name as given, which must be a plain word (never a path). */
function folderName(platform: string): string {
  if (!/^[a-z0-9][a-z0-9-]{0,31}$/.test(platform))
    throw new Error(`not a stand-in platform name: ${platform}`);
  return platform;
}
