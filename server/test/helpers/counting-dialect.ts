// A Kysely dialect that records every statement run through it, for tests that count queries
// (better-auth builds its own Kysely from the dialect it is given).
import type {
  CompiledQuery,
  DatabaseConnection,
  Dialect,
  Driver,
  TransactionSettings,
} from 'kysely';

export function countingDialect(dialect: Dialect, seen: string[]): Dialect {
  const original = new WeakMap<DatabaseConnection, DatabaseConnection>();
  const unwrap = (c: DatabaseConnection) => original.get(c) ?? c;
  return {
    createAdapter: () => dialect.createAdapter(),
    createIntrospector: (db) => dialect.createIntrospector(db),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createDriver: (): Driver => {
      const driver = dialect.createDriver();
      return {
        init: () => driver.init(),
        destroy: () => driver.destroy(),
        acquireConnection: async () => {
          const connection = await driver.acquireConnection();
          const counted: DatabaseConnection = {
            executeQuery: (query: CompiledQuery) => {
              seen.push(query.sql);
              return connection.executeQuery(query);
            },
            streamQuery: (query: CompiledQuery, chunkSize?: number) =>
              connection.streamQuery(query, chunkSize),
          };
          original.set(counted, connection);
          return counted;
        },
        beginTransaction: (c: DatabaseConnection, settings: TransactionSettings) =>
          driver.beginTransaction(unwrap(c), settings),
        commitTransaction: (c: DatabaseConnection) => driver.commitTransaction(unwrap(c)),
        rollbackTransaction: (c: DatabaseConnection) => driver.rollbackTransaction(unwrap(c)),
        releaseConnection: (c: DatabaseConnection) => driver.releaseConnection(unwrap(c)),
      };
    },
  };
}
