import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, rmdir, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { assertBlobKey } from './blob-key.ts';
import type { BlobStore } from './blob-store.ts';
import { contentTypeForKey } from './content-type.ts';

/**
 * Blobs as files under `rootDir`, at their key's path. A put writes a temporary file in
 * `.tmp/` and renames it into place, so a reader sees the old bytes or the new ones, never a
 * torn file. A content type given at put is kept in a sidecar under `.types/`; without
 * one, the key's extension says it. Keys never start a segment with a dot, so neither
 * folder can collide with a blob.
 */
export async function createFileBlobStore(rootDir: string): Promise<BlobStore> {
  const root = resolve(rootDir);
  const tmpDir = join(root, '.tmp');
  await mkdir(tmpDir, { recursive: true });

  const dataPath = (key: string) => join(root, key);
  const typePath = (key: string) => join(root, '.types', key);

  async function writeAtomically(path: string, data: Uint8Array | string): Promise<void> {
    const tmp = join(tmpDir, randomBytes(12).toString('hex'));
    try {
      await writeFile(tmp, data);
      await mkdir(dirname(path), { recursive: true });
      await rename(tmp, path).catch(async (error: unknown) => {
        // A delete emptied the folder and took it away between the two steps: make it again.
        if (!isMissing(error)) throw error;
        await mkdir(dirname(path), { recursive: true });
        await rename(tmp, path);
      });
    } catch (error) {
      await rm(tmp, { force: true });
      throw error;
    }
  }

  /** Folders a delete left empty go too: a folder's name is a site's id (`screenshots/<target>/…`). */
  async function removeEmptyFolders(path: string, stop: string): Promise<void> {
    for (let folder = dirname(path); folder.startsWith(`${stop}/`); folder = dirname(folder)) {
      try {
        await rmdir(folder);
      } catch {
        // Not empty (or already gone): the folders above it are not empty either.
        return;
      }
    }
  }

  return {
    async put(key, data, meta) {
      assertBlobKey(key);
      await writeAtomically(dataPath(key), data);
      if (meta?.contentType) await writeAtomically(typePath(key), meta.contentType);
      else await rm(typePath(key), { force: true });
    },

    async get(key) {
      assertBlobKey(key);
      const data = await readIfPresent(dataPath(key));
      if (!data) return null;
      const storedType = await readIfPresent(typePath(key));
      const contentType = storedType ? storedType.toString('utf8') : contentTypeForKey(key);
      const bytes = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
      return contentType ? { data: bytes, contentType } : { data: bytes };
    },

    async delete(key) {
      assertBlobKey(key);
      await rm(dataPath(key), { force: true });
      await rm(typePath(key), { force: true });
      await removeEmptyFolders(dataPath(key), root);
      await removeEmptyFolders(typePath(key), join(root, '.types'));
    },

    async size(key) {
      assertBlobKey(key);
      try {
        const found = await stat(dataPath(key));
        return found.isFile() ? found.size : null;
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
    },

    async exists(key) {
      assertBlobKey(key);
      try {
        return (await stat(dataPath(key))).isFile();
      } catch (error) {
        if (isMissing(error)) return false;
        throw error;
      }
    },

    async close() {},
  };
}

async function readIfPresent(path: string): Promise<Buffer | null> {
  try {
    return await readFile(path);
  } catch (error) {
    if (isMissing(error)) return null;
    throw error;
  }
}

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}
