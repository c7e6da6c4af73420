import { fromNodeHeaders } from 'better-auth/node';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../app-error';
import type { Auth } from './auth';

/** The signed-in member's id, or 401 'User not authenticated'. */
export async function requireUserId(auth: Auth, request: FastifyRequest): Promise<string> {
  const session = await auth.api.getSession({ headers: fromNodeHeaders(request.headers) });
  if (!session) throw new AppError(401, 'unauthorized');
  return session.user.id;
}
