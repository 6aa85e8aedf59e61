import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, open, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { assertStorageKey, type Storage } from './storage.ts';

/** Files on local disk under one directory (DATA_DIR/files by default). */
export class LocalStorage implements Storage {
  constructor(private readonly root: string) {}

  #path(key: string) {
    assertStorageKey(key);
    return path.join(this.root, ...key.split('/'));
  }

  async put(key: string, body: Buffer) {
    const file = this.#path(key);
    await mkdir(path.dirname(file), { recursive: true });
    // Write then rename would be atomic; a fresh uuid key is never read before the row exists, so a plain write is enough.
    await writeFile(file, body, { mode: 0o600 });
  }

  async putStream(key: string, body: Readable) {
    const file = this.#path(key);
    await mkdir(path.dirname(file), { recursive: true });
    // A partial file must never be readable under the key: write beside it, rename once complete.
    const partial = `${file}.${randomUUID()}.partial`;
    try {
      await pipeline(body, createWriteStream(partial, { mode: 0o600 }));
      await rename(partial, file);
    } catch (err) {
      await rm(partial, { force: true });
      throw err;
    }
  }

  async get(key: string) {
    try {
      return await readFile(this.#path(key));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  async getStream(key: string) {
    let handle: Awaited<ReturnType<typeof open>>;
    try {
      handle = await open(this.#path(key), 'r');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
    // The opened handle: a file deleted between the check and the read is still read whole.
    return handle.createReadStream({ highWaterMark: 256 * 1024 }) as Readable;
  }

  async delete(key: string) {
    await rm(this.#path(key), { force: true });
  }
}
