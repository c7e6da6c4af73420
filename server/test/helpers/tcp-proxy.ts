// A TCP hop between the server and PostgreSQL that a test can cut (every connection dropped, new
// ones refused, as when the database restarts) and restore on the same port, or black-hole (some
// connections stop forwarding without closing: half-open, as when a NAT or firewall forgets them).
import net from 'node:net';

export interface TcpProxy {
  port: number;
  cut(): Promise<void>;
  restore(): Promise<void>;
  /** Stops forwarding, both ways, on the connections whose hop to the target leaves from one of
   * these local ports (what pg_stat_activity shows as client_port); nothing is closed. */
  blackHole(upstreamPorts: number[]): number;
  close(): Promise<void>;
}

export async function tcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<net.Socket>();
  const pairs = new Set<{ client: net.Socket; upstream: net.Socket }>();
  let server: net.Server;
  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      server = net.createServer((client) => {
        const upstream = net.connect(target.port, target.host);
        const pair = { client, upstream };
        pairs.add(pair);
        for (const s of [client, upstream]) {
          sockets.add(s);
          s.on('close', () => {
            sockets.delete(s);
            pairs.delete(pair);
          });
          s.on('error', () => s.destroy());
        }
        client.pipe(upstream).pipe(client);
      });
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve((server.address() as net.AddressInfo).port));
    });
  const port = await listen(0);
  const stop = async () => {
    for (const s of sockets) s.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  const blackHole = (upstreamPorts: number[]) => {
    let holed = 0;
    for (const { client, upstream } of pairs) {
      if (!upstreamPorts.includes(upstream.localPort ?? -1)) continue;
      client.unpipe(upstream);
      upstream.unpipe(client);
      client.pause();
      upstream.pause();
      holed += 1;
    }
    return holed;
  };
  return {
    port,
    cut: stop,
    restore: async () => void (await listen(port)),
    blackHole,
    close: stop,
  };
}
