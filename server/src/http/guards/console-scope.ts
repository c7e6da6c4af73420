// The console's routes answer only an operator (a member with the operator role) whose session
// passed two-factor sign-in (migration 0017: session_two_factor). A member gets 403 not_operator,
// an operator without a second factor 403 two_factor_required; no session at all, 401. Both are
// read on every request: revoking the role, changing the password or the second factor ends that
// standing in the database (migration 0020), so no process's memory of sessions keeps it open.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import { AppError } from '../../app-error';
import { memberRoutes } from './member-scope';
import type { SessionCheck } from '../../infra/identity/session';
import type { Database } from '../../infra/db/database';
import type { AuditActor } from '../../domain/operators/audit';

export interface ConsoleOperator extends AuditActor {
  operatorId: string;
  operatorEmail: string;
  name: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    operator: ConsoleOperator | null;
  }
}

export async function consoleOperator(
  database: Database,
  userId: string,
  token: string,
): Promise<ConsoleOperator> {
  const rows = await sql<{
    email: string;
    full_name: string;
    two_factor: boolean | null;
    passed: boolean;
  }>`
    SELECT p.email, p.full_name, u."twoFactorEnabled" AS two_factor,
           EXISTS (SELECT 1 FROM session s JOIN session_two_factor t ON t.session_id = s.id
                    WHERE s.token = ${token} AND s."userId" = ${userId}) AS passed
      FROM operators o JOIN profiles p ON p.id = o.user_id JOIN "user" u ON u.id = o.user_id
     WHERE o.user_id = ${userId}`.execute(database.db);
  const row = rows.rows[0];
  if (!row) throw new AppError(403, 'not_operator');
  if (row.two_factor !== true || !row.passed) throw new AppError(403, 'two_factor_required');
  return {
    actor: 'console',
    operatorId: userId,
    operatorEmail: row.email,
    name: row.full_name,
  };
}

/** `routes`, each answering only an operator whose session passed two-factor sign-in. */
export function operatorConsoleRoutes(
  sessions: SessionCheck,
  database: Database,
  routes: FastifyPluginAsyncZod,
): FastifyPluginAsyncZod {
  return memberRoutes(sessions, async (app, opts) => {
    app.decorateRequest('operator', null);
    app.addHook('preValidation', async (request) => {
      request.operator = await consoleOperator(
        database,
        request.member.userId,
        request.member.token,
      );
    });
    await routes(app, opts);
  });
}
