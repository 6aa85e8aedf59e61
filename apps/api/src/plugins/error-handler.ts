import path from 'node:path';
import { isDatabaseUnavailable } from '@cp/db';
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { AppError, type FieldError, problemBody } from '../errors/app-error.ts';

/** Retry-After of a 503 DATABASE_UNAVAILABLE answer. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/**
 * One place that renders every failure as problem+json: validation errors with per-field messages,
 * Fastify's own client errors with their 4xx status, and anything unexpected as a 500 without internals.
 */
export function registerErrorHandler(app: FastifyInstance, options: { spaFallback?: boolean } = {}) {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const send = (status: number, code: string, detail?: string, errors?: FieldError[]) =>
      reply
        .status(status)
        .type('application/problem+json')
        .send(problemBody(status, code, detail, errors));

    if (error instanceof AppError) {
      if (error.status >= 500) request.log.error({ err: error }, 'request failed');
      return send(error.status, error.code, error.detail, error.errors);
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const errors = error.validation.map((v) => ({
        path: [error.validationContext, ...String(v.instancePath).split('/').filter(Boolean)].join('.'),
        message: v.message ?? 'Invalid value',
      }));
      return send(400, 'REQUEST_INVALID', 'The request is not valid.', errors);
    }
    if (isResponseSerializationError(error)) {
      request.log.error({ err: error }, 'response did not match its schema');
      return send(500, 'INTERNAL', 'Something went wrong on our side.');
    }
    if (isDatabaseUnavailable(error)) {
      // Transient: the pool reconnects by itself once the database is back, so clients retry shortly.
      request.log.warn({ err: error }, 'database unavailable');
      reply.header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS));
      return send(503, 'DATABASE_UNAVAILABLE', 'The database is temporarily unavailable; retry shortly.');
    }
    const status = error.statusCode ?? 500;
    if (status === 413) return send(413, 'REQUEST_BODY_TOO_LARGE', 'The request body is too large.');
    if (status === 415) return send(415, 'REQUEST_UNSUPPORTED_MEDIA_TYPE', 'This content type is not accepted.');
    if (status === 429) return send(429, 'RATE_LIMITED', 'Too many requests; slow down.');
    if (status >= 400 && status < 500) {
      // Malformed JSON, empty bodies with a JSON content type and similar client faults.
      return send(status, 'REQUEST_INVALID', error.message);
    }
    request.log.error({ err: error }, 'unexpected error');
    return send(500, 'INTERNAL', 'Something went wrong on our side.');
  });

  app.setNotFoundHandler((request, reply) => {
    const pathname = request.url.split('?')[0] ?? '';
    const isServerPath = pathname === '/api' || pathname.startsWith('/api/') || pathname.startsWith('/dev/');
    // Client-side routes of the console (/credentials/…) load index.html; files and API paths do not.
    if (options.spaFallback && request.method === 'GET' && !isServerPath && !path.extname(pathname)) {
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    }
    return reply
      .status(404)
      .type('application/problem+json')
      .send(problemBody(404, 'NOT_FOUND', `No route for ${request.method} ${pathname}`));
  });
}
