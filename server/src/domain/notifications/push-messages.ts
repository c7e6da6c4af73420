// The words of a push, from the same messages as the mails (messages.ts): the subject as its
// title, the first line as its body, the app path it opens. Null when there is nothing to say any
// more (the REME was claimed meanwhile). A push carries at most about 4 KB, so both are clipped.
import type { Kysely } from 'kysely';
import type { DB } from '../../infra/db/schema';
import type { RenderPush } from '../../infra/push/worker';
import { notificationMessage } from './messages';

const clip = (text: string, max: number) =>
  text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`;

export function pushRenderer(db: Kysely<DB>): RenderPush {
  return async (push) => {
    const message = await notificationMessage(db, push);
    if (message === null) return null;
    return {
      title: clip(message.subject, 120),
      body: clip(message.lines[0] ?? message.heading, 400),
      url: message.action.path,
    };
  };
}
