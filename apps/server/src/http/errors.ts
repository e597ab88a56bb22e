import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { isReadable } from '@replatform/contracts/api-error';

/** An error whose message is safe to show to the caller. */
export class ApiError extends Error {
  readonly statusCode: number;
  readonly code: string;
  readonly details: string[] | undefined;

  constructor(statusCode: number, code: string, message: string, details?: string[]) {
    super(message);
    this.statusCode = statusCode;
    this.code = code;
    this.details = details;
  }
}

export const notFound = (message = 'Not found') => new ApiError(404, 'not_found', message);

function send(
  reply: FastifyReply,
  status: number,
  code: string,
  message: string,
  details?: string[],
) {
  return reply
    .status(status)
    .type('application/json; charset=utf-8')
    .send({ error: details ? { code, message, details } : { code, message } });
}

/**
 * Paths that belong to the API (spec.md section 7 keeps several outside /api). Unknown paths
 * under them answer JSON; every other unknown GET is a client-side route of the web app.
 */
export function isApiPath(url: string): boolean {
  const path = url.split('?')[0] ?? '';
  return (
    path === '/healthz' ||
    path.startsWith('/api/') ||
    path === '/api' ||
    /^\/(get-|verify-|migration-progress|migration\/)/.test(path)
  );
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (error instanceof ApiError) {
      return send(reply, error.statusCode, error.code, error.message, error.details);
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const details = error.validation.map((v) => {
        const where = v.instancePath.slice(1).replaceAll('/', '.');
        return `${where || error.validationContext || 'request'}: ${v.message}`;
      });
      // A rule the contract words for people (a name too long) is said as it is written.
      const readableMessage = error.validation.find(
        (v) => v.message && isReadable(v.message),
      )?.message;
      return send(
        reply,
        400,
        'invalid_request',
        readableMessage ?? 'The request is not valid.',
        details,
      );
    }
    if (
      error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' ||
      error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY'
    ) {
      return send(reply, 400, 'invalid_json', 'The request body is not valid JSON.');
    }
    if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      return send(
        reply,
        415,
        'unsupported_media_type',
        'Send the request body as application/json.',
      );
    }
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return send(reply, 413, 'body_too_large', 'The request body is too large.');
    }
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      return send(reply, error.statusCode, 'bad_request', error.message);
    }
    request.log.error({ err: error }, 'unexpected failure');
    return send(
      reply,
      500,
      'internal_error',
      'Something went wrong on our side. Please try again.',
    );
  });
}

export function sendNotFound(reply: FastifyReply) {
  return send(reply, 404, 'not_found', 'No such API route.');
}
