import { Oauth2ServerErrorResponseError } from '@openid4vc/oauth2';
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError } from '../errors/app-error.ts';
import { OAuthError } from '../errors/oauth-error.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The OAuth error code a protocol route answers malformed input with: `invalid_request` (RFC 6749 §5.2,
     * OpenID4VP) unless the standard names its own (`invalid_credential_request`, OpenID4VCI 1.0 §8.3.1.2).
     */
    oauthInvalidRequest?: string;
  }
}

export interface OAuthAnswer {
  status: number;
  error: string;
  description: string;
  headers?: Readonly<Record<string, string>>;
}

const DESCRIPTION_MAX = 500;

/** The zod issues of a failed route schema, as one line a client developer can act on. */
function validationDescription(error: FastifyError & { validation: unknown[]; validationContext?: string }) {
  const issues = (error.validation as { instancePath?: string; message?: string }[]).map((issue) => {
    const path = [error.validationContext, ...String(issue.instancePath ?? '').split('/')].filter(Boolean).join('.');
    return `${path}: ${issue.message ?? 'invalid value'}`;
  });
  return `The request is malformed (${issues.join('; ')}).`;
}

/**
 * What a protocol endpoint answers for a failure, or undefined when the failure is not the client's protocol
 * fault (rate limiting, unexpected errors: the API's own handler renders those). Malformed input (route schema,
 * unreadable body, unsupported content type) is the route's invalid-request error with 400, as RFC 6749 §5.2 and
 * OpenID4VCI §8.3.1.2 prescribe; a body over the limit keeps its 413.
 */
export function oauthAnswer(error: unknown, invalidRequest = 'invalid_request'): OAuthAnswer | undefined {
  if (error instanceof OAuthError) {
    return { status: error.status, error: error.error, description: error.description, headers: error.headers };
  }
  if (error instanceof Oauth2ServerErrorResponseError) {
    const { error: code, error_description: description } = error.errorResponse;
    return { status: error.status, error: code, description: description ?? code };
  }
  // The API-wide checks of every request (NUL characters anywhere in it).
  if (error instanceof AppError && error.code === 'REQUEST_INVALID') {
    return { status: 400, error: invalidRequest, description: error.detail ?? 'The request is malformed.' };
  }
  const fastifyError = error as FastifyError;
  if (hasZodFastifySchemaValidationErrors(fastifyError)) {
    return { status: 400, error: invalidRequest, description: validationDescription(fastifyError) };
  }
  if (fastifyError.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
    return { status: 413, error: invalidRequest, description: 'The request body is too large.' };
  }
  if (fastifyError.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
    return { status: 400, error: invalidRequest, description: 'This content type is not accepted here.' };
  }
  // Malformed JSON, an empty JSON body, a bad content length and other faults of the body's framing.
  if (fastifyError.code?.startsWith('FST_ERR_CTP_') || fastifyError.statusCode === 400) {
    return { status: 400, error: invalidRequest, description: 'The request body cannot be read.' };
  }
  return undefined;
}

/**
 * Renders the failures of a plugin's protocol routes as OAuth errors `{error, error_description}` with
 * `cache-control: no-store` (RFC 6749 §5.2); the plugin's CORS headers are already set (publicCors, onRequest). Anything else is thrown on to the
 * API's error handler (problem+json), such as the rate limiter's 429 and server errors.
 */
export function registerOAuthErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((error, request, reply) => {
    const answer = oauthAnswer(error, request.routeOptions.config.oauthInvalidRequest);
    if (!answer) {
      // Fastify hands on to the API's handler only what is an Error (the rate limiter throws a plain object).
      throw error instanceof Error ? error : Object.assign(new Error('Request refused'), error);
    }
    if (answer.status === 401) reply.header('www-authenticate', `Bearer error="${answer.error}"`);
    if (answer.headers) reply.headers(answer.headers);
    return reply
      .status(answer.status)
      .header('cache-control', 'no-store')
      .type('application/json; charset=utf-8')
      .send({ error: answer.error, error_description: answer.description.slice(0, DESCRIPTION_MAX) });
  });
}
