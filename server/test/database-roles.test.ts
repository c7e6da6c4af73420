// PostgreSQL in production runs the server under a role that does not own the schema: the owner
// migrates (DATABASE_MIGRATION_URL) and grants it what it uses, so the server's own role cannot
// rewrite the operator audit log — not delete, update or truncate it, nor switch its triggers off
// (docs/operations.md#database-roles). The server refuses to start in production as the owner.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes, randomUUID } from 'node:crypto';
import pg from 'pg';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../src/infra/db/database';
import { auditLogRewritableBecause } from '../src/infra/db/database-roles';
import { openServices } from '../src/services';
import { consoleOperatorCookie } from './helpers/console-operator';
import { cloneMemberKeys, joinAndConfirm, makeMemberKeys, ORIGIN } from './helpers/members';
import { buildTestApp, testConfig, type TestApp } from './helpers/test-app';
import { testDbKind } from './helpers/test-database';

async function asAdmin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

// Roles need a PostgreSQL server: PGlite is one embedded session whose files are the process's own.
describe.runIf(testDbKind === 'postgres')(
  'the server under a role that does not own the schema',
  () => {
    const suffix = randomBytes(5).toString('hex');
    const ownerRole = `crw_owner_${suffix}`;
    const appRole = `crw_app_${suffix}`;
    const databaseName = `crw_roles_${suffix}`;
    const urlAs = (role: string) => {
      const url = new URL(process.env.TEST_DATABASE_URL!);
      url.username = role;
      url.pathname = `/${databaseName}`;
      return url.toString();
    };
    let t: TestApp;
    let appDatabase: Database;
    let asApp: pg.Client;

    beforeAll(async () => {
      await asAdmin(async (admin) => {
        await admin.query(`CREATE ROLE ${ownerRole} LOGIN`);
        await admin.query(`CREATE ROLE ${appRole} LOGIN`);
        await admin.query(`CREATE DATABASE ${databaseName} OWNER ${ownerRole}`);
      });
      appDatabase = await openDatabase({ kind: 'postgres', url: urlAs(appRole), poolSize: 5 });
      t = await buildTestApp({
        chain: false,
        database: { database: appDatabase, url: urlAs(appRole), drop: () => appDatabase.close() },
        env: {
          PUBLIC_URL: ORIGIN,
          DATABASE_URL: urlAs(appRole),
          DATABASE_MIGRATION_URL: urlAs(ownerRole),
          AUTH_RATE_LIMIT_PER_IP: '500',
        },
      });
      asApp = new pg.Client({ connectionString: urlAs(appRole) });
      await asApp.connect();
    }, 120_000);
    afterAll(async () => {
      await asApp?.end();
      await t?.close();
      await appDatabase?.close();
      await asAdmin(async (admin) => {
        await admin.query(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`);
        await admin.query(`DROP ROLE IF EXISTS ${appRole}`);
        await admin.query(`DROP ROLE IF EXISTS ${ownerRole}`);
      });
    });

    it('signs members up and audits operator actions, as that role', async () => {
      const { rows } = await asApp.query<{ role: string }>('SELECT current_user AS role');
      expect(rows).toEqual([{ role: appRole }]);
      const { rows: owners } = await asApp.query<{ owner: string }>(
        `SELECT pg_get_userbyid(relowner) AS owner FROM pg_class WHERE relname = 'operator_audit'`,
      );
      expect(owners).toEqual([{ owner: ownerRole }]);

      const base = await makeMemberKeys();
      const db = t.services.database.db;
      const cookie = await consoleOperatorCookie(
        t.app,
        db,
        await cloneMemberKeys(base),
        t.services.operatorKey,
      );
      const memberId = await joinAndConfirm(t.app, db, await cloneMemberKeys(base));
      const credited = await t.app.inject({
        method: 'POST',
        url: `/api/console/members/${memberId}/care-actions`,
        headers: { origin: ORIGIN, cookie, 'idempotency-key': randomUUID() },
        payload: { caps: 5, description: 'Helped at the fair' },
      });
      expect(credited.statusCode, credited.body).toBe(201);
      const audit = await t.app.inject({
        method: 'GET',
        url: '/api/console/audit',
        headers: { cookie },
      });
      expect(audit.statusCode, audit.body).toBe(200);
      expect((audit.json().entries as Array<{ action: string }>).map((e) => e.action)).toEqual(
        expect.arrayContaining(['operator.grant', 'care-action.credit']),
      );
      expect(await auditLogRewritableBecause(t.services.database)).toBeNull();
    });

    it('cannot switch off the triggers, delete, update, truncate or drop the audit log', async () => {
      const count = async () =>
        (await asApp.query<{ n: string }>('SELECT count(*) AS n FROM operator_audit')).rows[0]!.n;
      const before = await count();
      expect(Number(before)).toBeGreaterThan(0);
      const attempts = [
        'ALTER TABLE operator_audit DISABLE TRIGGER operator_audit_no_change',
        'ALTER TABLE operator_audit DISABLE TRIGGER ALL',
        'DELETE FROM operator_audit',
        "UPDATE operator_audit SET action = 'nothing'",
        'TRUNCATE operator_audit',
        'DROP TABLE operator_audit',
        'ALTER TABLE operator_audit RENAME TO old_audit',
        "SET session_replication_role = 'replica'",
        'DROP FUNCTION operator_audit_append_only() CASCADE',
      ];
      const refused: string[] = [];
      for (const statement of attempts) {
        try {
          await asApp.query(statement);
        } catch (error) {
          if (/permission denied|must be owner/.test((error as Error).message))
            refused.push(statement);
        }
      }
      expect(refused).toEqual(attempts);
      expect(await count()).toBe(before);
    });

    it('refuses to start in production as the owner (or a superuser) of the audit log', async () => {
      const asOwner = await openDatabase({ kind: 'postgres', url: urlAs(ownerRole), poolSize: 2 });
      try {
        expect(await auditLogRewritableBecause(asOwner)).toMatch(/owns operator_audit/);
        const config = {
          ...testConfig({ DATA_DIR: mkdtempSync(path.join(tmpdir(), 'crw-data-')) }),
          isProduction: true,
        };
        await expect(
          openServices(config, pino({ level: 'silent' }), { database: asOwner }),
        ).rejects.toThrow(/owns operator_audit.*DATABASE_MIGRATION_URL/);
      } finally {
        await asOwner.close();
      }
      const asSuperuser = await openDatabase({
        kind: 'postgres',
        url: urlAs(new URL(process.env.TEST_DATABASE_URL!).username),
        poolSize: 1,
      });
      try {
        expect(await auditLogRewritableBecause(asSuperuser)).toMatch(/superuser/);
      } finally {
        await asSuperuser.close();
      }
    });
  },
);
