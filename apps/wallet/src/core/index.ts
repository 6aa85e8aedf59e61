export * from './display.ts';
export * from './errors.ts';
export * from './platform-trust.ts';
export * from './present.ts';
export * from './receive.ts';
export * from './receive-authorization.ts';
export * from './status.ts';
export type * from './types.ts';
export * from './vault.ts';
