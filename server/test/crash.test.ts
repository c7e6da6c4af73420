// Two server processes on one PostgreSQL database, one killed with SIGKILL in the middle of 100
// sign-ups: every sign-up is whole or absent, and every confirmation mail reaches the member once
// (the survivor delivers what the dead process had taken, after MAIL_LEASE_SECONDS).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  cloneMemberKeys,
  makeMemberKeys,
  registerBody,
  uniqueEmail,
  type MemberKeys,
} from './helpers/members';
import { spawnServer, waitForHealthy, type ServerProcess } from './helpers/server-process';
import { freePort, smtpPeer, type SmtpPeer } from './helpers/smtp-peer';
import { fixtureWebDist } from './helpers/test-app';
import { createPostgresDatabase, testDbKind } from './helpers/test-database';

describe.runIf(testDbKind === 'postgres')(
  'SIGKILL of one of two server processes during 100 sign-ups',
  () => {
    let peer: SmtpPeer;
    let url: string;
    let drop: () => Promise<void>;
    const servers: ServerProcess[] = [];

    beforeAll(async () => {
      const created = await createPostgresDatabase();
      url = created.url;
      drop = created.drop;
      peer = smtpPeer(await freePort());
      await peer.start();
    });
    afterAll(async () => {
      for (const s of servers) await s.stop('SIGKILL');
      await peer?.stop();
      await drop?.();
    });

    it('leaves every sign-up whole or absent and sends each confirmation mail once', async () => {
      const env = {
        DATABASE_URL: url,
        DATA_DIR: mkdtempSync(path.join(tmpdir(), 'crw-data-')),
        WEB_DIST_DIR: fixtureWebDist(),
        SMTP_URL: `smtp://127.0.0.1:${peer.port}`,
        MAIL_LEASE_SECONDS: '3',
        AUTH_RATE_LIMIT_PER_IP: '100000',
        LOG_LEVEL: 'warn',
      };
      // The first process deploys the embedded chain; the second then replays its journal.
      for (let i = 0; i < 2; i++) {
        const server = spawnServer({ ...env, PORT: String(await freePort()) });
        servers.push(server);
        await waitForHealthy(server);
      }
      const [doomed, survivor] = servers as [ServerProcess, ServerProcess];
      const base = await makeMemberKeys();
      const members: MemberKeys[] = await Promise.all(
        Array.from({ length: 100 }, () => cloneMemberKeys(base, uniqueEmail('crash'))),
      );

      const outcomes = new Map<string, number | 'failed'>();
      const signUp = async (member: MemberKeys, server: ServerProcess) => {
        try {
          const body = await registerBody(server.url, member);
          const res = await fetch(`${server.url}/api/register`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(body),
          });
          outcomes.set(member.email, res.status);
        } catch {
          outcomes.set(member.email, 'failed'); // the process died under it
        }
      };
      let started = 0;
      const killed = new Promise<void>((resolve) => {
        const check = setInterval(() => {
          if (started >= 40) {
            clearInterval(check);
            doomed.child.kill('SIGKILL');
            resolve();
          }
        }, 5);
      });
      await Promise.all(
        Array.from({ length: 10 }, async (_, lane) => {
          for (let i = lane; i < members.length; i += 10) {
            started += 1;
            await signUp(members[i]!, i % 2 === 0 ? doomed : survivor);
          }
        }),
      );
      await killed;
      expect(await doomed.exited).toBeNull(); // killed by the signal, not exited

      const db = new pg.Client({ connectionString: url });
      await db.connect();
      try {
        const emails = members.map((m) => m.email);
        const rows = await db.query<{
          email: string;
          account: number;
          profile: number;
          wallet: number;
          distribution: number;
          mail: number;
        }>(
          `SELECT u.email,
                (SELECT count(*)::int FROM account a WHERE a."userId" = u.id) AS account,
                (SELECT count(*)::int FROM profiles p WHERE p.id = u.id) AS profile,
                (SELECT count(*)::int FROM user_wallets w WHERE w.user_id = u.id) AS wallet,
                (SELECT count(*)::int FROM user_token_distributions d WHERE d.user_id = u.id) AS distribution,
                (SELECT count(*)::int FROM mail_outbox m WHERE m.to_address = u.email) AS mail
           FROM "user" u WHERE u.email = ANY($1)`,
          [emails],
        );
        const registered = new Set(rows.rows.map((r) => r.email));
        const created = [...outcomes]
          .filter(([, status]) => status === 201)
          .map(([email]) => email);
        const failed = [...outcomes].filter(([, status]) => status === 'failed').length;
        console.info(
          `[crash] sign-ups answered 201: ${created.length}, cut off by the kill: ${failed}, accounts in the database: ${registered.size}`,
        );
        expect(failed).toBeGreaterThan(0);
        expect([...outcomes.values()].filter((s) => s !== 201 && s !== 'failed')).toEqual([]);
        // Whole or absent: each account has its credential, profile, wallet, distributions row and one mail.
        expect(
          rows.rows.filter(
            (r) =>
              r.account !== 1 ||
              r.profile !== 1 ||
              r.wallet !== 1 ||
              r.distribution !== 1 ||
              r.mail !== 1,
          ),
        ).toEqual([]);
        for (const email of created) expect(registered.has(email), email).toBe(true);
        const orphans = await db.query(
          `SELECT id FROM profiles p WHERE p.email = ANY($1) AND NOT EXISTS (SELECT 1 FROM "user" u WHERE u.id = p.id)`,
          [emails],
        );
        expect(orphans.rows).toEqual([]);

        // Every registered member gets their confirmation mail once; nobody else gets one.
        await expect
          .poll(
            async () =>
              (
                await db.query(
                  `SELECT count(*)::int AS n FROM mail_outbox WHERE status = 'pending'`,
                )
              ).rows[0].n,
            { timeout: 60_000, interval: 500 },
          )
          .toBe(0);
        const deliveries = new Map<string, Set<string>>();
        let raw = 0;
        for (const mail of peer.received) {
          const to = mail.to[0]!;
          if (!emails.includes(to)) continue;
          raw += 1;
          const id = /^Message-ID: (.+)$/im.exec(mail.raw)?.[1]?.trim() ?? '';
          deliveries.set(to, (deliveries.get(to) ?? new Set()).add(id));
        }
        console.info(
          `[crash] SMTP deliveries ${raw} for ${deliveries.size} members (a repeat keeps its Message-ID)`,
        );
        expect([...deliveries.keys()].sort()).toEqual([...registered].sort());
        expect([...deliveries.values()].filter((ids) => ids.size !== 1)).toEqual([]);
      } finally {
        await db.end();
      }
    }, 240_000);
  },
);
