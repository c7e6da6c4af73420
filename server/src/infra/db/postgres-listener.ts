// LISTEN on PostgreSQL: a dedicated connection per channel (a pooled one would be handed to other
// queries), rebuilt when it drops. A half-open connection (the peer gone without a FIN: a NAT or
// firewall that forgot it, a host that died) reports nothing, so the connection also hears its
// own heartbeat: a NOTIFY sent through the pool every interval must come back within the deadline,
// or the connection is destroyed and rebuilt like one that dropped (docs/security.md#sessions).
import { randomUUID } from 'node:crypto';
import pg from 'pg';

export const LISTENER_HEARTBEAT_CHANNEL = 'listener_heartbeat';

export interface ListenerHeartbeat {
  /** A heartbeat is sent this often. */
  intervalMs: number;
  /** A heartbeat not heard back within this is a deaf connection. */
  timeoutMs: number;
}

export const DEFAULT_LISTENER_HEARTBEAT: ListenerHeartbeat = {
  intervalMs: 5_000,
  timeoutMs: 5_000,
};

/** How long connecting and the LISTEN itself may take before the attempt counts as failed. */
const CONNECT_TIMEOUT_MS = 5_000;
/** TCP keepalive probes start after this much silence: the kernel notices a vanished peer too. */
const KEEPALIVE_DELAY_MS = 10_000;
const RECONNECT_DELAY_MS = 1_000;
/** `end()` waits for the server's goodbye, which never comes on a half-open connection. */
const END_DEADLINE_MS = 1_000;

export interface ListenOptions {
  url: string;
  channel: string;
  handler: (payload: string) => void;
  onGap?: () => void;
  /** Sends a NOTIFY through the pool (another connection than the listening one). */
  notify: (channel: string, payload: string) => Promise<void>;
  heartbeat: ListenerHeartbeat;
}

/** Resolves to an unlisten function once the first connection listens. */
export async function listenPostgres(opts: ListenOptions): Promise<() => Promise<void>> {
  let client: pg.Client | undefined;
  let stopHeartbeat: (() => void) | undefined;
  let stopped = false;
  const connect = async (): Promise<void> => {
    const next = new pg.Client({
      connectionString: opts.url,
      keepAlive: true,
      keepAliveInitialDelayMillis: KEEPALIVE_DELAY_MS,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      query_timeout: CONNECT_TIMEOUT_MS,
    });
    next.on('notification', (message) => {
      if (message.channel === opts.channel) opts.handler(message.payload ?? '');
    });
    // A connection that ends without an error (the server closed it) is lost just the same. One
    // that never got to listen is retried by whoever called connect().
    let lost = false;
    let listening = false;
    const onLost = () => {
      if (lost || !listening) return;
      lost = true;
      client = undefined;
      stopHeartbeat?.();
      opts.onGap?.();
      if (!stopped) reconnectSoon();
    };
    next.on('error', onLost);
    next.on('end', onLost);
    try {
      await next.connect();
      await next.query(`LISTEN ${pg.escapeIdentifier(opts.channel)}`);
      await next.query(`LISTEN ${pg.escapeIdentifier(LISTENER_HEARTBEAT_CHANNEL)}`);
    } catch (error) {
      destroy(next);
      throw error;
    }
    client = next;
    listening = true;
    stopHeartbeat = heartbeat(next, opts, () => destroy(next));
  };
  // Until the database answers again: a restart can take longer than one retry.
  const reconnectSoon = () =>
    setTimeout(() => {
      if (!stopped) connect().then(() => opts.onGap?.(), reconnectSoon);
    }, RECONNECT_DELAY_MS);
  await connect();
  return async () => {
    stopped = true;
    stopHeartbeat?.();
    if (client) await endOrDestroy(client);
  };
}

/**
 * Sends a heartbeat every interval through the pool and calls `deaf` once one sent is not heard
 * back on `client` within the deadline after it was sent. A heartbeat the pool could not send
 * proves nothing (the database may be away, which the listening connection reports itself).
 * Every process hears every heartbeat; each waits only for its own. Returns a stop function.
 */
function heartbeat(
  client: pg.Client,
  opts: Pick<ListenOptions, 'notify' | 'heartbeat'>,
  deaf: () => void,
): () => void {
  const waiting = new Map<string, NodeJS.Timeout | undefined>();
  let stopped = false;
  client.on('notification', (message) => {
    const nonce = message.payload ?? '';
    if (message.channel !== LISTENER_HEARTBEAT_CHANNEL || !waiting.has(nonce)) return;
    clearTimeout(waiting.get(nonce));
    waiting.delete(nonce);
  });
  const beat = async () => {
    const nonce = randomUUID();
    waiting.set(nonce, undefined);
    try {
      await opts.notify(LISTENER_HEARTBEAT_CHANNEL, nonce);
    } catch {
      waiting.delete(nonce);
      return;
    }
    if (stopped || !waiting.has(nonce)) return;
    const onDeadline = () => {
      stop();
      deaf();
    };
    waiting.set(nonce, setTimeout(onDeadline, opts.heartbeat.timeoutMs));
  };
  const timer = setInterval(() => void beat(), opts.heartbeat.intervalMs);
  const stop = () => {
    stopped = true;
    clearInterval(timer);
    for (const deadline of waiting.values()) clearTimeout(deadline);
    waiting.clear();
  };
  return stop;
}

function destroy(client: pg.Client): void {
  client.connection.stream.destroy();
}

async function endOrDestroy(client: pg.Client): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    client.end().catch(() => undefined),
    new Promise((resolve) => (timer = setTimeout(resolve, END_DEADLINE_MS))),
  ]);
  clearTimeout(timer);
  destroy(client);
}
