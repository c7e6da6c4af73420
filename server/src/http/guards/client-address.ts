// better-auth records a new session's client address from a request header it is told to read.
// This server writes that header itself, from the address Fastify trusts under TRUST_PROXY
// (request.ip), over anything the client sent: the session list shows no address a client chose.
import type { FastifyInstance } from 'fastify';
import { TRUSTED_ADDRESS_HEADER } from '../../infra/identity/auth';

export function recordTrustedAddress(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    request.headers[TRUSTED_ADDRESS_HEADER] = request.ip;
  });
}
