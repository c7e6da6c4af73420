// The one place errors become responses: { code, message } with stable codes, never internals.
import { errorBody, type ErrorCode } from '@crw/core';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError } from '../../app-error';
import { isDatabaseUnavailable } from '../../infra/db/unavailable';

const codeByStatus: Record<number, ErrorCode> = {
  400: 'invalid_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'rate_limited',
  503: 'service_unavailable',
};

function validationMessage(error: FastifyError): string {
  if (hasZodFastifySchemaValidationErrors(error)) {
    const first = error.validation[0];
    const field = first?.instancePath.replace(/^\//, '').replace(/\//g, '.');
    return `The request is not valid${field ? `: ${field}` : ''}${first?.message ? ` (${first.message})` : ''}.`;
  }
  return 'The request is not valid.';
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (error instanceof AppError) {
      return reply.status(error.statusCode).send(errorBody(error.code, error.message));
    }
    if (error.validation) {
      return reply.status(400).send(errorBody('invalid_request', validationMessage(error)));
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      request.log.info({ err: error }, 'request rejected');
      if (status === 429 && error.message)
        return reply.status(429).send(errorBody('rate_limited', error.message));
      return reply.status(status).send(errorBody(codeByStatus[status] ?? 'invalid_request'));
    }
    if (isDatabaseUnavailable(error)) {
      request.log.warn({ err: error }, 'database unavailable');
      return reply.status(503).header('retry-after', '5').send(errorBody('service_unavailable'));
    }
    request.log.error({ err: error }, 'request failed');
    return reply
      .status(status === 503 ? 503 : 500)
      .send(errorBody(status === 503 ? 'service_unavailable' : 'internal_error'));
  });
}
