import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
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

  async get(key: string) {
    try {
      return await readFile(this.#path(key));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  async delete(key: string) {
    await rm(this.#path(key), { force: true });
  }
}
