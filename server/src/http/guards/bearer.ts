// `Authorization: Bearer <key>` compared in constant time: the operator API key and the sister
// app's client secret are both checked this way.
import { timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../../app-error';

export function hasBearer(request: FastifyRequest, key: string): boolean {
  const given = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1] ?? '';
  const a = Buffer.from(given);
  const b = Buffer.from(key);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** 401 unless the request carries `Authorization: Bearer <operator key>`. */
export function requireOperator(request: FastifyRequest, key: string): void {
  if (!hasBearer(request, key)) throw new AppError(401, 'invalid_api_key');
}
