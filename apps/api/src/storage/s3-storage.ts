import type { Readable } from 'node:stream';
import { DeleteObjectCommand, GetObjectCommand, NoSuchKey, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { assertStorageKey, type Storage } from './storage.ts';

export interface S3StorageOptions {
  bucket: string;
  region: string;
  endpoint?: string | undefined;
  accessKeyId?: string | undefined;
  secretAccessKey?: string | undefined;
  forcePathStyle?: boolean | undefined;
}

/** S3-compatible object storage (AWS S3, MinIO, R2, ...). */
export class S3Storage implements Storage {
  readonly #client: S3Client;
  readonly #bucket: string;

  constructor(options: S3StorageOptions) {
    this.#bucket = options.bucket;
    this.#client = new S3Client({
      region: options.region,
      ...(options.endpoint ? { endpoint: options.endpoint } : {}),
      forcePathStyle: options.forcePathStyle ?? false,
      ...(options.accessKeyId && options.secretAccessKey
        ? { credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey } }
        : {}),
    });
  }

  async put(key: string, body: Buffer, contentType: string) {
    assertStorageKey(key);
    await this.#client.send(
      new PutObjectCommand({ Bucket: this.#bucket, Key: key, Body: body, ContentType: contentType }),
    );
  }

  async putStream(key: string, body: Readable, contentType: string) {
    assertStorageKey(key);
    // A multipart upload of 8 MiB parts, at most two in flight: memory stays ~16 MiB whatever the size. On
    // failure the multipart upload is aborted (leavePartsOnError false), so no object appears under the key.
    const upload = new Upload({
      client: this.#client,
      params: { Bucket: this.#bucket, Key: key, Body: body, ContentType: contentType },
      partSize: 8 * 1024 * 1024,
      queueSize: 2,
      leavePartsOnError: false,
    });
    // The SDK reads the body but does not forward its 'error' (a failed check on the way): abort on it.
    const failed = new Promise<never>((_, reject) => {
      body.once('error', (err) => {
        upload.abort().catch(() => undefined);
        reject(err);
      });
    });
    const done = upload.done();
    for (const p of [failed, done]) p.catch(() => undefined);
    await Promise.race([done, failed]);
  }

  async getStream(key: string) {
    assertStorageKey(key);
    try {
      const object = await this.#client.send(new GetObjectCommand({ Bucket: this.#bucket, Key: key }));
      if (!object.Body) return null;
      return object.Body as Readable;
    } catch (err) {
      if (err instanceof NoSuchKey || (err as { name?: string }).name === 'NoSuchKey') return null;
      throw err;
    }
  }

  async get(key: string) {
    assertStorageKey(key);
    try {
      const object = await this.#client.send(new GetObjectCommand({ Bucket: this.#bucket, Key: key }));
      if (!object.Body) return null;
      return Buffer.from(await object.Body.transformToByteArray());
    } catch (err) {
      if (err instanceof NoSuchKey || (err as { name?: string }).name === 'NoSuchKey') return null;
      throw err;
    }
  }

  async delete(key: string) {
    assertStorageKey(key);
    await this.#client.send(new DeleteObjectCommand({ Bucket: this.#bucket, Key: key }));
  }

  close() {
    this.#client.destroy();
  }
}
