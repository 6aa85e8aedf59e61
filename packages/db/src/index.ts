export * from './database.ts';
export * from './database-errors.ts';
export * from './ids.ts';
export type { KeyAttestationRecord, WalletAttestationRecord } from './schema.ts';
export * as schema from './schema.ts';
export * from './secret-box.ts';
export * from './statement.ts';
