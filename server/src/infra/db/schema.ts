// Kysely table types for the SQL in server/migrations. Amounts in base units are numeric(78,0),
// which both drivers return as decimal strings; counts and ids come back as numbers.
import type { GateForm, SecurityEventKind, WalletProofPurpose } from '@crw/core';
import type { ColumnType, Generated } from 'kysely';

type Amount = ColumnType<string, string | bigint | undefined, string | bigint>;
type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

export interface ProfilesTable {
  id: string;
  username: string;
  full_name: string;
  referral_code: string | null;
  email: string;
  referred_by: string | null;
  referred_with_code: string | null;
  created_at: CreatedAt;
  /** When the member last opened the notification centre (migration 0032). */
  notifications_seen_at: Timestamp | null;
  /** The member's mail choices and "claim for me" (migration 0033). */
  mail_credits: ColumnType<MailCredits, MailCredits | undefined, MailCredits>;
  mail_rounds: ColumnType<boolean, boolean | undefined, boolean>;
  claim_for_me: ColumnType<boolean, boolean | undefined, boolean>;
  mail_credits_version: ColumnType<number, number | undefined, number>;
  mail_rounds_version: ColumnType<number, number | undefined, number>;
  digest_until: Timestamp | null;
}

export type MailCredits = 'instant' | 'daily' | 'weekly' | 'off';
export type NotificationTopic = 'credits' | 'rounds';

export interface RewardLedgerTable {
  id: Generated<number>;
  user_id: string;
  source_key: string;
  kind: 'signup' | 'referral' | 'care_action' | 'conversion';
  caps: number;
  reme: Amount;
  level: number | null;
  from_user_id: string | null;
  description: string;
  created_at: CreatedAt;
  /** Held credits move no balance until released (migration 0026). */
  status: Generated<'held' | 'released' | 'void'>;
  /** The member whose joining the credit rewards (their bonus, or their referrers' credits). */
  subject_id: string | null;
  release_at: Date | null;
  settled_at: Date | null;
  decision_note: string | null;
}

/** The reward policy the servers were started with (REWARD_* settings, one row). */
export interface RewardPolicyTable {
  singleton: Generated<boolean>;
  hold_hours: Generated<number>;
  referrer_daily_cap: Generated<number>;
  busy_network_signups: Generated<number>;
  flag_weight: Generated<number>;
  cash_out_block: Generated<string>;
  /** CONVERSION_OPEN and CONVERSION_CAPS_PER_REME (as CAPs per 1,000 REME), migration 0030. */
  conversion_open: Generated<boolean>;
  caps_per_thousand_reme: Generated<number>;
  /** CLAIM_FOR_ME_DEFAULT: "claim for me" of a member who joins (migration 0033). */
  claim_for_me_default: Generated<boolean>;
}

/** What a sign-up looked like (its network prefix, a hashed browser class), kept while it is held. */
export interface SignupSignalsTable {
  user_id: string;
  network: string;
  device_class: string | null;
  created_at: CreatedAt;
  /** When the member first asked for their details after signing up (migration 0029). */
  opened_at: Date | null;
}

/** The signals a joining raised, each with its weight. */
export interface RewardFlagsTable {
  subject_id: string;
  signal: string;
  weight: number;
  detail: string;
  created_at: CreatedAt;
}

/** One row per person ever rewarded (migration 0024): the SHA-256 of the canonical e-mail address,
 * and the account the rewards went to (null once deleted). */
export interface RewardedPeopleTable {
  fingerprint: string;
  user_id: string | null;
}

export interface UserWalletsTable {
  user_id: string;
  wallet_address: string;
  encrypted_wallet: string;
  /** A password reset left the keystore locked by the old password (migration 0015). */
  locked_by_old_password: ColumnType<boolean, boolean | undefined, boolean>;
  /** When the member proved they saved the recovery phrase (migration 0031). */
  phrase_saved_at: Date | null;
  updated_at: Timestamp;
}

export interface UserTokenDistributionsTable {
  user_id: string;
  signup_tokens: Amount;
  earned_referral_tokens: Amount;
  rrp_balance: ColumnType<number, number | undefined, number>;
  activity_caps: ColumnType<number, number | undefined, number>;
  signup_caps: ColumnType<number, number | undefined, number>;
  /** Care CAPs the member converted, and the REME they bought (migration 0030). */
  converted_caps: ColumnType<number, number | undefined, number>;
  converted_tokens: ColumnType<string, string | undefined, string>;
  updated_at: Timestamp;
}

export interface ReferralsTable {
  id: Generated<number>;
  referrer_id: string;
  referred_id: string;
  referral_code: string;
  level: number;
  created_at: CreatedAt;
}

export interface MailOutboxTable {
  id: Generated<number>;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string | null;
  status: ColumnType<'pending' | 'sent', 'pending' | 'sent' | undefined, 'pending' | 'sent'>;
  attempts: ColumnType<number, number | undefined, number>;
  next_attempt_at: Timestamp;
  last_error: string | null;
  created_at: CreatedAt;
  sent_at: Date | null;
}

type NotificationMailStatus = 'pending' | 'sent' | 'skipped';

/** Notification mails, queued as a template and its figures and written when delivered; they go
 * after every mail of the outbox (migration 0033). */
export interface NotificationMailsTable {
  id: Generated<number>;
  user_id: string;
  to_address: string;
  topic: NotificationTopic;
  template: string;
  params: unknown;
  subject: string | null;
  status: ColumnType<
    NotificationMailStatus,
    NotificationMailStatus | undefined,
    NotificationMailStatus
  >;
  attempts: ColumnType<number, number | undefined, number>;
  next_attempt_at: Timestamp;
  last_error: string | null;
  created_at: CreatedAt;
  sent_at: Date | null;
}

/** Reminders sent to members who had not claimed a round after 7 and 30 days (migration 0033). */
export interface ClaimRemindersTable {
  user_id: string;
  round_index: number;
  after_days: 7 | 30;
  sent_at: ColumnType<Date, Date | undefined, never>;
}

export interface DevMailboxTable {
  id: Generated<number>;
  outbox_id: number | null;
  /** Or the notification mail's (migration 0033). */
  notification_id?: number | null;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string | null;
  delivered_at: CreatedAt;
}

export interface ChainJournalTable {
  seq: Generated<number>;
  tx_hash: string;
  raw_tx: string;
  /** The block the transaction was mined in; null on entries from before migration 0007 until a start records it. */
  block_number: number | null;
  block_timestamp: number | null;
  block_hash: string | null;
  created_at: CreatedAt;
}

export interface ChainJournalArchiveTable {
  seq: number;
  tx_hash: string;
  raw_tx: string;
  block_number: number | null;
  block_timestamp: number | null;
  block_hash: string | null;
  created_at: Date;
  archived_at: CreatedAt;
  reason: string;
}

/** prepared → sent → in_review (proposed, not claimable yet) → published (active), or cancelled by
 * a guardian during its review (migration 0038). */
export type RoundStatus = 'prepared' | 'sent' | 'in_review' | 'published' | 'cancelled';

export interface DistributionRoundsTable {
  round_index: number;
  root: string;
  total: Amount;
  member_count: number;
  nodes: Uint8Array;
  status: ColumnType<RoundStatus, RoundStatus | undefined, RoundStatus>;
  tx_hash: string | null;
  raw_tx: string | null;
  created_at: CreatedAt;
  published_at: Timestamp | null;
  /** When the round's notices (claims for members, mails) were queued (migration 0033). */
  notices_at: Timestamp | null;
  /** The reminders already sent for the round: 0, 7 or 30 (migration 0033). */
  reminders_sent: ColumnType<number, number | undefined, number>;
  /** When members can claim it, from the distributor (migration 0038). */
  active_at: Timestamp | null;
  cancelled_at: Timestamp | null;
}

export interface DistributionEntriesTable {
  round_index: number;
  user_id: string;
  wallet_address: string;
  cumulative_amount: Amount;
  tree_index: number;
}

export interface HandoffCodesTable {
  code_hash: string;
  user_id: string;
  expires_at: Date | string;
  used_at: Timestamp | null;
  created_at: CreatedAt;
}

export interface WalletChallengesTable {
  nonce: string;
  purpose: WalletProofPurpose;
  user_id: string | null;
  issued_at: Date | string;
  expires_at: Date | string;
  used_at: Timestamp | null;
}

/** The sign-up gate's used solutions (migration 0027): one row per challenge nonce, kept until
 * `keep_until`; a registration's row keeps its client network for the hourly count. */
export interface SignupGateUsesTable {
  nonce: string;
  form: GateForm;
  network: string | null;
  registered: Generated<boolean>;
  used_at: CreatedAt;
  keep_until: Date | string;
}

export interface ChainFollowerStateTable {
  id: ColumnType<boolean, boolean | undefined, never>;
  chain_id: number;
  token_address: string;
  distributor_address: string;
  block_number: number;
  block_hash: string | null;
  block_timestamp: number | null;
  head_number: number | null;
  round_index: ColumnType<number, number | undefined, number>;
  round_root: string | null;
  round_block: number | null;
  /** The distributor's status() at block_number (migration 0038): the newest round proposed. */
  latest_index: ColumnType<number, number | undefined, number>;
  latest_active_at: number | null;
  latest_cancelled: ColumnType<boolean, boolean | undefined, boolean>;
  claims_paused: ColumnType<boolean, boolean | undefined, boolean>;
  synced_at: Timestamp | null;
  attempted_at: Timestamp | null;
  last_error: string | null;
}

export interface ChainFollowerBlocksTable {
  block_number: number;
  block_hash: string;
}

export type ChainEventKind =
  'transfer' | 'claimed' | 'root_published' | 'root_proposed' | 'root_cancelled';

export interface ChainEventsTable {
  block_number: number;
  log_index: number;
  block_hash: string;
  tx_hash: string;
  kind: ChainEventKind;
  from_address: string | null;
  to_address: string | null;
  amount: Amount;
  round_index: number | null;
  root: string | null;
  /** RootProposed's activeAt, seconds (migration 0038). */
  active_at: number | null;
}

export interface ChainWalletsTable {
  address: string;
  reme_balance: Amount;
  claimed: Amount;
  block_number: number;
}

export interface RelayerAttempt {
  hash: string;
  raw: string;
  maxFeePerGas: string;
  maxPriorityFeePerGas: string;
  signedAt: string;
}

export interface RelayerTransactionsTable {
  relayer: string;
  nonce: number;
  round_index: number;
  status: 'pending' | 'mined' | 'failed';
  attempts: ColumnType<RelayerAttempt[], string, string>;
  mined_hash: string | null;
  block_number: number | null;
  gas_used: number | null;
  cost_wei: Amount | null;
  error: string | null;
  created_at: ColumnType<Date, Date | undefined, never>;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

export type SponsoredClaimStatus = 'queued' | 'sent' | 'confirmed' | 'failed';

export interface SponsoredClaimsTable {
  id: Generated<number>;
  user_id: string;
  account: string;
  round_index: number;
  cumulative_amount: Amount;
  amount: Amount;
  /** Null for a claim sent for the member ("claim for me", migration 0033). */
  signature: string | null;
  deadline: Date | null;
  for_me: ColumnType<boolean, boolean | undefined, never>;
  status: SponsoredClaimStatus;
  reason: string | null;
  relayer: string | null;
  tx_nonce: number | null;
  reserved_wei: Amount;
  spent_wei: Amount | null;
  /** The client network the claim was asked from (migration 0028). */
  network: string | null;
  created_at: ColumnType<Date, Date | undefined, never>;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

/** One row per sponsored claim, kept when the claim goes with its member (migration 0019). */
export interface SponsorSpendingTable {
  claim_id: number;
  created_at: Date;
  wei: Amount;
  network: string | null;
}

export type RoundAlertKind =
  'foreign_root' | 'treasury_transfer' | 'treasury_allowance' | 'publisher_eth_low';

/** Alerts about the distributor (migration 0039). */
export interface RoundAlertsTable {
  id: Generated<number>;
  kind: RoundAlertKind;
  round_index: number | null;
  detail: ColumnType<Record<string, string>, string | undefined, string>;
  block_number: number | null;
  tx_hash: string | null;
  raised_at: CreatedAt;
  notified_at: Timestamp | null;
  resolved_at: Timestamp | null;
}

/** A member's report about their line in a round in review (migration 0040). */
export interface RoundReportsTable {
  id: Generated<number>;
  round_index: number;
  user_id: string;
  message: string;
  created_at: CreatedAt;
}

export interface OperatorsTable {
  user_id: string;
  granted_at: CreatedAt;
}

export interface OperatorAuditTable {
  id: Generated<number>;
  at: CreatedAt;
  actor: 'console' | 'api-key';
  operator_id: string | null;
  action: string;
  target: string | null;
  detail: ColumnType<Record<string, unknown>, string | undefined, never>;
  ip: string | null;
  idempotency_key: string | null;
  request_id: string | null;
}

export interface DistributorFundingTable {
  id: ColumnType<boolean, boolean | undefined, never>;
  round_index: number;
  block_number: number;
  balance: ColumnType<string, string | bigint, string | bigint>;
  owed: ColumnType<string, string | bigint, string | bigint>;
  checked_at: ColumnType<Date, Date | undefined, Date>;
}

/** A member's browser subscribed to web push (migration 0034). */
export interface PushSubscriptionsTable {
  id: Generated<number>;
  user_id: string;
  endpoint: string;
  p256dh: string;
  auth: string;
  topics: ColumnType<NotificationTopic[], NotificationTopic[] | undefined, NotificationTopic[]>;
  label: ColumnType<string, string | undefined, string>;
  created_at: CreatedAt;
  last_success_at: Date | null;
}

type PushDeliveryStatus = 'pending' | 'sent' | 'skipped' | 'expired';

/** A push waiting for one subscription, written when it is sent (migration 0034). */
export interface PushDeliveriesTable {
  id: Generated<number>;
  subscription_id: number;
  topic: NotificationTopic;
  template: string;
  params: unknown;
  status: ColumnType<PushDeliveryStatus, PushDeliveryStatus | undefined, PushDeliveryStatus>;
  attempts: ColumnType<number, number | undefined, number>;
  next_attempt_at: Timestamp;
  last_error: string | null;
  created_at: CreatedAt;
  sent_at: Date | null;
}

/** What happened to a member's account (migration 0035): see core's SECURITY_EVENT_KINDS. */
export interface SecurityEventsTable {
  id: Generated<number>;
  user_id: string;
  kind: SecurityEventKind;
  at: CreatedAt;
  /** The device's name and the client's network; never a token. */
  detail: ColumnType<SecurityEventDetail, string | undefined, never>;
}

export interface SecurityEventDetail {
  device?: string;
  network?: string | null;
}

/** The browsers a member signed in on, by the SHA-256 of their device cookie (migration 0035). */
export interface MemberDevicesTable {
  user_id: string;
  device_hash: string;
  label: string;
  first_seen_at: CreatedAt;
  last_seen_at: Timestamp;
}

/** A member's passkey (migration 0037): the public key and counter WebAuthn checks with. */
export interface PasskeysTable {
  id: string;
  user_id: string;
  credential_id: string;
  public_key: Uint8Array;
  counter: ColumnType<string, number | undefined, number>;
  transports: ColumnType<string[], string[] | undefined, never>;
  synced: boolean;
  prf: ColumnType<boolean, boolean | undefined, never>;
  name: string;
  created_at: CreatedAt;
  last_used_at: Date | null;
}

/** The wallet's key wrapped for one passkey in the member's browser (migration 0037). */
export interface PasskeyWalletKeysTable {
  passkey_id: string;
  prf_salt: string;
  iv: string;
  ciphertext: string;
  created_at: CreatedAt;
}

/** Single-use WebAuthn challenges (migration 0037). */
export interface WebauthnChallengesTable {
  id: string;
  challenge: string;
  purpose: 'register' | 'sign_in';
  user_id: string | null;
  expires_at: Date;
}

export interface DB {
  distributor_funding: DistributorFundingTable;
  operators: OperatorsTable;
  round_alerts: RoundAlertsTable;
  round_reports: RoundReportsTable;
  operator_audit: OperatorAuditTable;
  relayer_transactions: RelayerTransactionsTable;
  sponsored_claims: SponsoredClaimsTable;
  sponsor_spending: SponsorSpendingTable;
  chain_follower_state: ChainFollowerStateTable;
  chain_follower_blocks: ChainFollowerBlocksTable;
  chain_events: ChainEventsTable;
  chain_wallets: ChainWalletsTable;
  handoff_codes: HandoffCodesTable;
  wallet_challenges: WalletChallengesTable;
  signup_gate_uses: SignupGateUsesTable;
  chain_journal: ChainJournalTable;
  chain_journal_archive: ChainJournalArchiveTable;
  distribution_rounds: DistributionRoundsTable;
  distribution_entries: DistributionEntriesTable;
  profiles: ProfilesTable;
  user_wallets: UserWalletsTable;
  user_token_distributions: UserTokenDistributionsTable;
  referrals: ReferralsTable;
  reward_ledger: RewardLedgerTable;
  rewarded_people: RewardedPeopleTable;
  reward_policy: RewardPolicyTable;
  signup_signals: SignupSignalsTable;
  reward_flags: RewardFlagsTable;
  mail_outbox: MailOutboxTable;
  notification_mails: NotificationMailsTable;
  claim_reminders: ClaimRemindersTable;
  dev_mailbox: DevMailboxTable;
  push_subscriptions: PushSubscriptionsTable;
  push_deliveries: PushDeliveriesTable;
  security_events: SecurityEventsTable;
  member_devices: MemberDevicesTable;
  passkeys: PasskeysTable;
  passkey_wallet_keys: PasskeyWalletKeysTable;
  webauthn_challenges: WebauthnChallengesTable;
}
