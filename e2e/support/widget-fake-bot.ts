import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface BotRequest {
  path: string;
  body: any;
}

/** A party outside our system (a bot provider, or a site owner's server): a real HTTP server on 127.0.0.1 that
 * records every POST and answers it. */
export class FakeBot {
  /** Answers every request (not only CLIENT_MESSAGE) with `fn(body)`: for standing in as a site owner's server. */
  answerAll: (fn: (body: any) => unknown) => void = () => undefined;

  private constructor(
    private readonly server: http.Server,
    readonly url: string,
    readonly received: BotRequest[],
  ) {}

  static async start(answer: (event: any) => unknown): Promise<FakeBot> {
    const received: BotRequest[] = [];
    let all: ((body: any) => unknown) | undefined;
    const server = http.createServer((req, res) => {
      let raw = '';
      req.on('data', (c: Buffer) => (raw += c.toString()));
      req.on('end', () => {
        const body = JSON.parse(raw || '{}');
        received.push({ path: req.url ?? '', body });
        const reply = all ? all(body) : body.event === 'CLIENT_MESSAGE' ? answer(body) : { result: 'ok' };
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(reply ?? {}));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const fake = new FakeBot(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}/bot`, received);
    fake.answerAll = (fn) => {
      all = fn;
    };
    return fake;
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.server.closeAllConnections();
      this.server.close(() => resolve());
    });
  }
}
