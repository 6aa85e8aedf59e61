import type { Config } from '../config/env.ts';
import { LocalStorage } from './local-storage.ts';
import { S3Storage } from './s3-storage.ts';
import type { Storage } from './storage.ts';

/** The configured driver (STORAGE_DRIVER); the drivers depend on `storage.ts`, never the other way round. */
export function createStorage(config: Config['storage']): Storage {
  if (config.driver === 's3') {
    if (!config.s3.bucket) throw new Error('S3_BUCKET is required when STORAGE_DRIVER=s3');
    return new S3Storage({ ...config.s3, bucket: config.s3.bucket });
  }
  return new LocalStorage(config.localDir);
}
