// The long-lived parts the app is built from; main.ts opens them, tests open their own.
import type { FastifyBaseLogger } from 'fastify';
import { createAuth, type Auth } from './infra/identity/auth';
import { SessionCache, SessionCheck } from './infra/identity/session';
import { FollowerProgressReader, MemberCache } from './domain/members/member-cache';
import { lockKeystoreAfterReset, walletAddressOf, type MemberRow } from './domain/members/member';
import { creditConfirmedMember } from './domain/members/registration';
import { recordSecurityChange, recordSignIn } from './domain/members/security-events';
import { openChain, type Chain } from './infra/chain/chain';
import { ChainFollower } from './domain/indexer/follower';
import { reopenDroppedRounds } from './domain/distribution/dropped-rounds';
import { FundingWatch } from './domain/distribution/funding-watch';
import { RoundWatch } from './domain/distribution/round-watch';
import { authSigningKey } from './infra/identity/auth-secret-key';
import { communityAppSecret, operatorApiKey } from './infra/identity/operator-key';
import type { Config } from './config';
import { makePrivate } from './data-dir';
import { openDatabase, type Database } from './infra/db/database';
import { setUpSchema } from './setup-schema';
import { auditLogRewritableBecause, migrateAsOwner } from './infra/db/database-roles';
import { OutboxWorker, type OutboxWorkerOptions } from './infra/mail/outbox';
import { MemberEvents } from './infra/db/member-notices';
import { embeddedRelayerKey } from './infra/chain/embedded-keys';
import { requeueVanishedBatches } from './domain/sponsorship/lost-batches';
import { Relayer, relayerSettings } from './domain/sponsorship/relayer';
import { parseEther } from 'ethers';
import { LeaderLoop } from './lib/leader-loop';
import { LOCK_KEYS } from './infra/db/lock-keys';
import { logPassFailure } from './infra/db/unavailable';
import { releaseDueCredits, writeRewardPolicy } from './domain/rewards/holds';
import { devMailboxTransport, smtpTransport, type MailTransport } from './infra/mail/transports';
import { notificationRenderer } from './domain/notifications/notification-mails';
import { noticesPass, type ClaimForMeSponsor } from './domain/notifications/round-notices';
import { sponsorSettings } from './domain/sponsorship/sponsor';
import { PushWorker, type PushWorkerOptions } from './infra/push/worker';
import { passkeyParty, passkeyVerdict } from './domain/members/passkeys';
import { vapidKeys } from './infra/push/vapid';
import { pushRenderer } from './domain/notifications/push-messages';

export interface AppServices {
  config: Config;
  database: Database;
  transport: MailTransport;
  worker: OutboxWorker;
  auth: Auth;
  /** Who a request's session cookie belongs to (better-auth, remembered briefly). */
  sessions: SessionCheck;
  /** Signs sessions and e-mail tokens (AUTH_SECRET or DATA_DIR/auth-secret). */
  signingKey: string;
  /** Bearer key of the operator API (OPERATOR_API_KEY or DATA_DIR/operator-key). */
  operatorKey: string;
  /** The sister app's client secret for hand-off redemption (COMMUNITY_APP_CLIENT_SECRET or DATA_DIR). */
  communityAppSecret: string;
  /** Fan-out of the database's member_events notifications to open event streams. */
  events: MemberEvents;
  /** Each member's /api/me row as last read, dropped on their member_events notice. */
  memberCache: MemberCache<MemberRow>;
  /** The chain follower's block and age, read at most once a second. */
  followerProgress: FollowerProgressReader;
  /** The chain: embedded Hardhat Network (journaled in the database) or CHAIN_RPC_URL. */
  chain: Chain;
  /** Indexes the chain into the database, in the one process that leads. */
  follower: ChainFollower;
  /** Checks that the distributor holds what its round owes, after the follower indexes. */
  funding: FundingWatch;
  roundWatch: RoundWatch;
  /** Sends sponsored claims in batches, in the one process that leads; undefined when sponsoring is off. */
  relayer: Relayer | undefined;
  /** Releases held rewards whose time has come, a pass a minute in every process (holds.ts). */
  rewardRelease: LeaderLoop;
  /** Claims for members, round mails, reminders and digests, a pass a minute in one process and
   * one as soon as the follower sees a new round (domain/notifications/round-notices.ts). */
  notices: LeaderLoop;
  /** Sends queued web pushes in every process (infra/push/worker.ts); holds the VAPID public key. */
  push: PushWorker;
  /** Set when the process is shutting down: /api/health answers 503 "draining" so a proxy takes it
   * out while it still serves (SHUTDOWN_DRAIN_SECONDS). */
  lifecycle: { draining: boolean };
}

/** The embedded chain's relayer starts with this much ETH from the faucet (and is topped up to it). */
const EMBEDDED_RELAYER_FLOAT = parseEther('10');

async function openRelayer(
  config: Config,
  database: Database,
  chain: Chain,
  log: FastifyBaseLogger,
): Promise<Relayer | undefined> {
  if (!config.sponsorClaims) return undefined;
  const key =
    config.RELAYER_PRIVATE_KEY ??
    (chain.faucet ? await embeddedRelayerKey(config.dataDir) : undefined);
  if (!key) return undefined;
  const relayer = new Relayer(relayerSettings(config), database, chain, key, log);
  if (
    chain.faucet &&
    (await chain.provider.getBalance(relayer.address)) < EMBEDDED_RELAYER_FLOAT / 2n
  ) {
    await (
      await chain.faucet.sendTransaction({ to: relayer.address, value: EMBEDDED_RELAYER_FLOAT })
    ).wait();
  }
  return relayer;
}

/** A production server never runs as a role that could rewrite the operator audit log: it refuses
 * to start (docs/operations.md#database-roles). Elsewhere, a warning. */
async function checkAuditLogRole(
  config: Config,
  database: Database,
  log: FastifyBaseLogger,
): Promise<void> {
  const because = await auditLogRewritableBecause(database);
  if (!because) return;
  const message = `${because}, so the server could rewrite the operator audit log: run it as a role that does not own the schema, with DATABASE_MIGRATION_URL for the owner (docs/operations.md#database-roles)`;
  if (config.isProduction) throw new Error(message);
  log.warn(message);
}

const REWARD_RELEASE_INTERVAL_MS = 60_000;
const NOTICES_INTERVAL_MS = 60_000;

export async function openServices(
  config: Config,
  log: FastifyBaseLogger,
  overrides: {
    database?: Database;
    outbox?: OutboxWorkerOptions;
    /** Instead of the configured chain: a stand-in with no node behind it, never followed (a test
     * app that does not use the chain, src/testing/no-chain.ts). */
    chainStandIn?: Chain;
    push?: PushWorkerOptions;
  } = {},
): Promise<AppServices> {
  const exposed = await makePrivate(config.dataDir);
  if (exposed.length > 0) {
    log.warn(
      { dataDir: config.dataDir, changed: exposed.length, first: exposed.slice(0, 5) },
      'DATA_DIR was open to other local users: folders set to 0700, files to 0600',
    );
  }
  const pgliteOnDisk = !overrides.database && !config.DATABASE_URL;
  const database =
    overrides.database ??
    (await openDatabase(
      config.DATABASE_URL
        ? {
            kind: 'postgres',
            url: config.DATABASE_URL,
            poolSize: config.DATABASE_POOL_SIZE,
            listenerHeartbeat: {
              intervalMs: config.DATABASE_LISTEN_HEARTBEAT_SECONDS * 1000,
              timeoutMs: config.DATABASE_LISTEN_HEARTBEAT_SECONDS * 1000,
            },
          }
        : { kind: 'pglite', dataDir: config.dataDir },
    ));
  const transport = config.SMTP_URL
    ? smtpTransport(config.SMTP_URL, config.MAIL_FROM, config.publicUrl)
    : devMailboxTransport(database.db, (line) => process.stdout.write(`${line}\n`));
  const signingKey = await authSigningKey(config);
  const worker = new OutboxWorker(database.db, transport, log, {
    leaseMs: config.MAIL_LEASE_SECONDS * 1000,
    render: notificationRenderer(database.db, signingKey, config.publicUrl),
    ...overrides.outbox,
  });
  const sessionCache = new SessionCache(config.SESSION_CHECK_CACHE_SECONDS * 1000);
  const auth = createAuth(
    config,
    database,
    signingKey,
    {
      mailQueued: () => worker.wake(),
      sessionEnded: (token) => sessionCache.forgetToken(token),
      passwordReset: (userId) => lockKeystoreAfterReset(database.db, userId),
      // Credit before the address is marked confirmed: if crediting fails the link can be used again.
      confirming: (userId) => creditConfirmedMember(database.db, userId),
      walletOf: async (userId) => {
        const address = await walletAddressOf(database.db, userId);
        if (!address) throw new Error(`member ${userId} has no wallet`);
        return address;
      },
      // Security events (domain/members/security-events.ts): each with its mail, sent at once.
      sessionBegan: async (began) => {
        if ((await recordSignIn(database.db, config.publicUrl, began)) === 'new') worker.wake();
      },
      securityChanged: async (userId, kind, client) => {
        await recordSecurityChange(database.db, config.publicUrl, userId, kind, client);
        worker.wake();
      },
      verifyPasskey: (body, origin) =>
        passkeyVerdict(database.db, passkeyParty(config, origin), body),
    },
    log,
  );
  const applied = config.DATABASE_MIGRATION_URL
    ? await migrateAsOwner(config.DATABASE_MIGRATION_URL, database, setUpSchema)
    : await setUpSchema(database);
  await checkAuditLogRole(config, database, log);
  await writeRewardPolicy(database.db, config);
  if (applied.length > 0) log.info({ applied }, 'migrations applied');
  // The chain before anything that runs: a journal that does not replay stops the start here.
  // Rounds whose publishing transaction a cut journal took away are reopened (dropped-rounds.ts).
  const chain =
    overrides.chainStandIn ??
    (await openChain(config, database, log, async (trx, txHashes) => ({
      ...(await reopenDroppedRounds(trx, txHashes)),
    })));
  const follower = new ChainFollower(config, database, chain, log);
  const funding = new FundingWatch(database.db, log);
  follower.afterPass(() => funding.afterIndexed());
  const roundWatch = new RoundWatch(database.db, chain, log, {
    publisherLowEth: config.PUBLISHER_LOW_BALANCE_ETH,
    publicUrl: config.publicUrl,
  });
  follower.afterPass(() => roundWatch.afterIndexed());
  // The embedded chain is indexed before the first request; a remote one may have far to catch up.
  if (!overrides.chainStandIn) {
    const following = follower.start();
    if (chain.node.kind === 'embedded') await following;
  }
  const followerProgress = new FollowerProgressReader(database.db);
  follower.afterPass(() => followerProgress.invalidate());
  // A reorganisation that takes away a sponsored batch's claims puts them back in the queue.
  follower.onRollBack((trx, vanished) => requeueVanishedBatches(trx, vanished, log));
  const relayer = await openRelayer(config, database, chain, log);
  await relayer?.start();
  const events = new MemberEvents();
  const memberCache = new MemberCache<MemberRow>(config.MEMBER_CACHE_SECONDS * 1000);
  events.observe((userId) => memberCache.changed(userId));
  await events.start(database);
  await sessionCache.start(database);
  const rewardRelease = new LeaderLoop({
    pass: async () => {
      const released = await releaseDueCredits(database.db);
      if (released > 0) log.info({ released }, 'held rewards released');
    },
    waitMs: () => REWARD_RELEASE_INTERVAL_MS,
    // One process at a time: the cash-out scan moves a cursor two processes would both read.
    lock: database.leaderLock(LOCK_KEYS.rewardRelease),
    onError: (error) => logPassFailure(log, error, 'releasing held rewards failed'),
  });
  await rewardRelease.start();
  const notices = noticesLoop(config, database, relayer, follower, followerProgress, worker, log);
  void notices.start();
  const push = new PushWorker(
    database.db,
    await vapidKeys(config),
    pushRenderer(database.db),
    log,
    {
      allowLocal: !config.isProduction,
      ...overrides.push,
    },
  );
  push.start();
  // PGlite has now written its files, some with modes of its own (see data-dir.ts).
  if (pgliteOnDisk) {
    const written = await makePrivate(config.dataDir);
    if (written.length > 0)
      log.info({ changed: written.length }, 'files PGlite wrote at start set to 0600');
  }
  return {
    config,
    database,
    transport,
    worker,
    auth,
    sessions: new SessionCheck(auth, sessionCache),
    signingKey,
    operatorKey: await operatorApiKey(config),
    communityAppSecret: await communityAppSecret(config),
    events,
    memberCache,
    followerProgress,
    chain,
    follower,
    funding,
    roundWatch,
    relayer,
    rewardRelease,
    notices,
    push,
    lifecycle: { draining: false },
  };
}

/** What "claim for me" spends: the sponsor's settings and the network's fee now (null when it
 * cannot be read or is above what the community pays); undefined when the community pays no fees. */
export function claimForMeSponsor(
  config: Config,
  relayer: Relayer | undefined,
): ClaimForMeSponsor | undefined {
  const settings = sponsorSettings(config);
  return (
    relayer && {
      settings,
      maxFeePerGas: async () => {
        const quote = await relayer.fees.quote().catch(() => null);
        return quote && quote.maxFeePerGas <= settings.maxFeePerGasWei ? quote.maxFeePerGas : null;
      },
    }
  );
}

/** The notices' loop: claims for members within the sponsor's budget (when it pays), round mails,
 * reminders, digests; brought forward when the follower follows a new round. */
function noticesLoop(
  config: Config,
  database: Database,
  relayer: Relayer | undefined,
  follower: ChainFollower,
  progress: FollowerProgressReader,
  worker: OutboxWorker,
  log: FastifyBaseLogger,
): LeaderLoop {
  const sponsor = claimForMeSponsor(config, relayer);
  let round: number | null = null;
  const loop = new LeaderLoop({
    pass: async () => {
      const done = await noticesPass(database.db, sponsor);
      round = done.round;
      if (done.claimsForMe + done.roundMails + done.reminders + done.digests > 0) {
        log.info(done, 'notices queued');
        worker.wake();
        if (done.claimsForMe > 0) relayer?.wake();
      }
    },
    waitMs: () => NOTICES_INTERVAL_MS,
    lock: database.leaderLock(LOCK_KEYS.notices),
    onError: (error) => logPassFailure(log, error, 'queueing notices failed'),
  });
  // After each of the follower's passes, through the progress reader the members' reads share
  // (its invalidation runs first: it was registered first).
  follower.afterPass(() => {
    void progress
      .read()
      .then((state) => {
        if (state && state.round_index !== round) void loop.runNow();
      })
      .catch(() => undefined);
  });
  return loop;
}

/** Stops the follower and the worker, then closes the transport and the database (in that order). */
export async function closeServices(services: AppServices): Promise<void> {
  await services.notices.stop();
  await services.rewardRelease.stop();
  await services.relayer?.stop();
  await services.follower.stop();
  await services.funding.settled();
  await services.roundWatch.settled();
  await services.worker.stop();
  await services.push.stop();
  await services.events.stop();
  await services.sessions.cache.stop();
  services.transport.close();
  await services.database.close();
}
