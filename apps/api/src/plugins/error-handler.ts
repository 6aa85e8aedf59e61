import path from 'node:path';
import { type DatabaseRefusalKind, databaseRefusalOf, isDatabaseUnavailable } from '@cp/db';
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { AppError, type ErrorCode, errorStatus, type FieldError, problemBody } from '../errors/app-error.ts';

/** Retry-After of a 503 DATABASE_UNAVAILABLE answer. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/**
 * What a request the database refused answers: the request's fault (a value too long for its column, a
 * rule of the table) or a race with another request (a duplicate, a row deleted meanwhile, a serialization
 * failure), never a 500. The detail names no table or constraint.
 */
const databaseRefusals: Record<DatabaseRefusalKind, { code: ErrorCode; detail: string }> = {
  unique_violation: { code: 'DATABASE_UNIQUE_VIOLATION', detail: 'A record with these values already exists.' },
  reference_violation: {
    code: 'DATABASE_REFERENCE_VIOLATION',
    detail: 'The request refers to a record that does not exist, or the record is still in use.',
  },
  check_violation: { code: 'DATABASE_CHECK_VIOLATION', detail: 'A value is outside what is allowed.' },
  value_too_long: { code: 'DATABASE_VALUE_TOO_LONG', detail: 'A value is too long.' },
  value_invalid: { code: 'DATABASE_VALUE_INVALID', detail: 'A value is missing or not valid.' },
  transaction_conflict: {
    code: 'DATABASE_TRANSACTION_CONFLICT',
    detail: 'Another request changed the same records at the same time; retry.',
  },
};

/**
 * One place that renders every failure as problem+json: validation errors with per-field messages,
 * Fastify's own client errors with their 4xx status, and anything unexpected as a 500 without internals.
 */
export function registerErrorHandler(app: FastifyInstance, options: { spaFallback?: boolean } = {}) {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const send = (status: number, code: ErrorCode, detail?: string, errors?: FieldError[]) =>
      reply
        .status(status)
        .type('application/problem+json')
        .send(problemBody(code, detail, errors, status));

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
    const refusal = databaseRefusalOf(error);
    if (refusal) {
      request.log.warn({ err: error, sqlState: refusal.sqlState, constraint: refusal.constraint }, 'database refused');
      const { code, detail } = databaseRefusals[refusal.kind];
      if (refusal.kind === 'transaction_conflict') reply.header('retry-after', '1');
      return send(errorStatus[code], code, detail);
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
      .send(problemBody('NOT_FOUND', `No route for ${request.method} ${pathname}`));
  });
}
