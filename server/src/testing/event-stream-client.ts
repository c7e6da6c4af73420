// A member's open dashboard, as far as the event stream goes: GET /api/events held open with the
// member's cookie, reconnected after the server's `retry:` as a browser's EventSource does, every
// event and every (re)connection told to the caller. For the proxy's tests and bench/soak.ts, where
// thousands of these stand for thousands of browsers.
import http from 'node:http';

export interface StreamEvent {
  event: string;
  data: string;
  at: number;
}

export interface MemberStreamOptions {
  /** The server or the proxy, http://host:port. */
  url: string;
  cookie: string;
  onEvent?: (event: StreamEvent) => void;
  /** The stream dropped (not closed by `close()`); a reconnection follows after `retry`. */
  onDrop?: (at: number) => void;
  /** Bind the connection to this local address (127.0.0.2 stands for another client). */
  localAddress?: string;
}

export class MemberStream {
  /** The reconnection delay the server last asked for (EventSource's default until it does). */
  retryMs = 3_000;
  connected = false;
  #request: http.ClientRequest | undefined;
  #closed = false;
  #timer: NodeJS.Timeout | undefined;

  constructor(readonly opts: MemberStreamOptions) {
    this.#open();
  }

  #open(): void {
    if (this.#closed) return;
    const { url, cookie, localAddress } = this.opts;
    const request = http.get(
      `${url}/api/events`,
      { headers: { cookie, accept: 'text/event-stream' }, agent: false, localAddress },
      (res) => {
        if (res.statusCode !== 200) {
          res.resume();
          this.#dropped();
          return;
        }
        this.connected = true;
        res.setEncoding('utf8');
        let buffer = '';
        res.on('data', (chunk: string) => {
          buffer += chunk;
          let end: number;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            this.#parse(buffer.slice(0, end));
            buffer = buffer.slice(end + 2);
          }
        });
        res.on('close', () => this.#dropped());
      },
    );
    request.on('error', () => this.#dropped());
    this.#request = request;
  }

  #parse(block: string): void {
    let event = 'message';
    let data = '';
    for (const line of block.split('\n')) {
      if (line.startsWith('retry:')) this.retryMs = Number(line.slice(6).trim()) || this.retryMs;
      else if (line.startsWith('event:')) event = line.slice(6).trim();
      else if (line.startsWith('data:')) data += line.slice(5).trim();
    }
    if (block.split('\n').every((line) => line.startsWith(':'))) return; // a heartbeat
    this.opts.onEvent?.({ event, data, at: Date.now() });
  }

  #dropped(): void {
    if (this.#closed || this.#timer) return;
    this.connected = false;
    this.#request?.destroy();
    this.opts.onDrop?.(Date.now());
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#open();
    }, this.retryMs);
  }

  close(): void {
    this.#closed = true;
    clearTimeout(this.#timer);
    this.#request?.destroy();
  }
}
