export * from './callbacks.ts';
export * from './dcql.ts';
export * from './errors.ts';
export * from './issuance.ts';
export * from './request.ts';
export * from './response.ts';
export * from './sd-jwt-vc.ts';
