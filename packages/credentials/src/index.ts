export * from './claims.ts';
export * from './encoding.ts';
export * from './jws.ts';
export * from './resolve.ts';
export * from './sd-jwt-vc.ts';
export * from './status-list.ts';
export * from './x509.ts';
