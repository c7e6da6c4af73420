// Every PostgreSQL advisory lock key the server takes, in one place so no two features share one
// by accident (they are process-wide on the database server).
export const LOCK_KEYS = {
  /** Applying migrations: one starting process at a time. */
  migrations: 73_022_026,
  /** Following the chain: the process that holds it leads. */
  chainFollower: 73_022_027,
  /** Publishing a distribution round: one publisher at a time. */
  publishRound: 73_022_028,
  /** Sending sponsored claims: the process that holds it runs the relayer. */
  relayer: 73_022_029,
  /** Checking a sponsored claim against the day's budget and queueing it: one at a time. */
  sponsorBudget: 73_022_030,
  /** Releasing held rewards and flagging cash-outs: the process that holds it does it. */
  rewardRelease: 73_022_031,
  /** Queueing claims for members, round mails, reminders and digests: one process at a time. */
  notices: 73_022_032,
} as const;
