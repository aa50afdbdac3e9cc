import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface BotRequest {
  path: string;
  body: any;
}

/** A bot provider outside our system: a real HTTP server on 127.0.0.1 that answers CLIENT_MESSAGE in-line. */
export class FakeBot {
  private constructor(
    private readonly server: http.Server,
    readonly url: string,
    readonly received: BotRequest[],
  ) {}

  static async start(answer: (event: any) => unknown): Promise<FakeBot> {
    const received: BotRequest[] = [];
    const server = http.createServer((req, res) => {
      let raw = '';
      req.on('data', (c: Buffer) => (raw += c.toString()));
      req.on('end', () => {
        const body = JSON.parse(raw || '{}');
        received.push({ path: req.url ?? '', body });
        const reply = body.event === 'CLIENT_MESSAGE' ? answer(body) : { result: 'ok' };
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(reply ?? {}));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return new FakeBot(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}/bot`, received);
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.server.closeAllConnections();
      this.server.close(() => resolve());
    });
  }
}
