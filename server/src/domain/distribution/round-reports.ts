// "Something wrong? Tell the community" (issue 28): a member who finds their line in a round in
// review wrong says so before it pays. The report is kept (one per member and round), mailed to
// every operator and listed in the console's Guardian section, where a guardian can cancel the
// round (docs/operations.md#a-round-this-server-did-not-build).
import type { Kysely } from 'kysely';
import { notifyMembers } from '../../infra/db/member-notices';
import type { DB } from '../../infra/db/schema';
import { enqueueMail } from '../../infra/mail/outbox';

export type ReportOutcome = 'reported' | 'not_in_round' | 'not_in_review' | 'already_reported';

export async function reportRound(
  db: Kysely<DB>,
  userId: string,
  index: number,
  message: string,
  publicUrl: string,
): Promise<ReportOutcome> {
  return db.transaction().execute(async (trx) => {
    const line = await trx
      .selectFrom('distribution_rounds as r')
      .innerJoin('distribution_entries as e', 'e.round_index', 'r.round_index')
      .innerJoin('profiles as p', 'p.id', 'e.user_id')
      .select(['r.status', 'e.cumulative_amount', 'p.email'])
      .where('r.round_index', '=', index)
      .where('e.user_id', '=', userId)
      .executeTakeFirst();
    if (!line) return 'not_in_round';
    if (line.status !== 'in_review') return 'not_in_review';
    const saved = await trx
      .insertInto('round_reports')
      .values({ round_index: index, user_id: userId, message })
      .onConflict((oc) => oc.columns(['round_index', 'user_id']).doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!saved) return 'already_reported';
    const operators = await trx
      .selectFrom('operators')
      .innerJoin('profiles', 'profiles.id', 'operators.user_id')
      .select('profiles.email')
      .execute();
    for (const { email } of operators)
      await enqueueMail(trx, {
        to: email,
        subject: `A member says round ${index} looks wrong`,
        text: `${line.email} checked their line in round ${index}, which is in review, and wrote:\n\n${message}\n\nTheir amount in the round: ${line.cumulative_amount} (base units). If the round is wrong, a guardian can cancel it before it pays: ${publicUrl}/operator/rounds (the Guardian section).`,
      });
    await notifyMembers(trx, [userId]);
    return 'reported';
  });
}

/** The latest reports, newest first, for the console. */
export async function recentReports(db: Kysely<DB>) {
  return db
    .selectFrom('round_reports as rr')
    .innerJoin('profiles as p', 'p.id', 'rr.user_id')
    .select(['rr.id', 'rr.round_index', 'rr.message', 'rr.created_at', 'p.email'])
    .orderBy('rr.id', 'desc')
    .limit(50)
    .execute();
}
