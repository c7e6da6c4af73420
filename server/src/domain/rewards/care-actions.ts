// A care action's CAPs, credited once per idempotency key (credit_reward's source_key 'care:<key>').
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../infra/db/schema';

export interface CareAction {
  idempotencyKey: string;
  /** The member, by e-mail address or by id (exactly one). */
  email?: string | undefined;
  userId?: string | undefined;
  caps: number;
  description: string;
}

export type CareActionOutcome =
  | { outcome: 'unknown_member' }
  | { outcome: 'credited' | 'replayed'; memberId: string }
  /** The key was used for another member or amount: what it recorded then. */
  | {
      outcome: 'conflict';
      memberId: string;
      recorded: { userId: string; caps: number; description: string; creditedAt: string };
    };

export async function creditCareAction(
  db: Kysely<DB>,
  action: CareAction,
): Promise<CareActionOutcome> {
  const { idempotencyKey, email, userId, caps, description } = action;
  let query = db.selectFrom('profiles').select('id');
  query = email ? query.where('email', '=', email.toLowerCase()) : query.where('id', '=', userId!);
  const member = await query.executeTakeFirst();
  if (!member) return { outcome: 'unknown_member' };
  const sourceKey = `care:${idempotencyKey}`;
  const result = await sql<{ credited: boolean }>`
    SELECT credit_reward(${member.id}, ${sourceKey}, 'care_action', ${caps}, 0, NULL, NULL, ${description}) AS credited`.execute(
    db,
  );
  if (result.rows[0]!.credited) return { outcome: 'credited', memberId: member.id };
  // A replay is only a replay when it asks for the same credit; anything else is a mistake the
  // operator must see, with what the key recorded.
  const recorded = await db
    .selectFrom('reward_ledger')
    .select(['user_id', 'caps', 'description', 'created_at'])
    .where('source_key', '=', sourceKey)
    .executeTakeFirstOrThrow();
  if (recorded.user_id === member.id && Number(recorded.caps) === caps)
    return { outcome: 'replayed', memberId: member.id };
  return {
    outcome: 'conflict',
    memberId: member.id,
    recorded: {
      userId: recorded.user_id,
      caps: Number(recorded.caps),
      description: recorded.description,
      creditedAt: new Date(recorded.created_at).toISOString(),
    },
  };
}
