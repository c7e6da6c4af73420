// A real SMTP server (the smtp-server package) that tests can make refuse mail, then accept it.
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string[];
  raw: string;
}

export interface SmtpPeer {
  port: number;
  received: ReceivedMail[];
  /** While true, every message is answered 451 (try again later). */
  refusing: boolean;
  refusals: number;
  start(): Promise<void>;
  stop(): Promise<void>;
}

export function smtpPeer(port: number): SmtpPeer {
  let server: SMTPServer | undefined;
  const peer: SmtpPeer = {
    port,
    received: [],
    refusing: false,
    refusals: 0,
    async start() {
      server = new SMTPServer({
        authOptional: true,
        disabledCommands: ['STARTTLS', 'AUTH'],
        logger: false,
        onData(stream, session, callback) {
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('end', () => {
            if (peer.refusing) {
              peer.refusals += 1;
              const error = Object.assign(new Error('Mailbox busy, try again later'), {
                responseCode: 451,
              });
              return callback(error);
            }
            peer.received.push({
              to: session.envelope.rcptTo.map((r) => r.address),
              raw: Buffer.concat(chunks).toString(),
            });
            callback();
          });
        },
      });
      await new Promise<void>((resolve, reject) => {
        server!.once('error', reject);
        server!.listen(port, '127.0.0.1', () => resolve());
      });
    },
    async stop() {
      await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
      server = undefined;
    },
  };
  return peer;
}

// Tests written before ports.ts import freePort from here.
export { freePort } from './ports';
