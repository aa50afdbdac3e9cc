import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ChatApiOutbound } from '@svc/protocol';

export interface ReceivedPost {
  path: string;
  body: ChatApiOutbound;
}

// A 1x1 transparent PNG: what /files/*.png serves, so message images really load.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');

/**
 * The integrating system's side of a Chat API channel (spec 4.1): a real HTTP server on 127.0.0.1 that
 * records every POST the service makes and answers 200 {"result":"ok"}, or the body it was told to.
 * It also serves small files under /files/ for media messages.
 */
export class FakeIntegrator {
  readonly received: ReceivedPost[] = [];
  private answer: unknown = { result: 'ok' };
  private readonly server = http.createServer((req, res) => this.handle(req, res));
  private origin = '';

  private constructor() {}

  static async start(): Promise<FakeIntegrator> {
    const integrator = new FakeIntegrator();
    await new Promise<void>((resolve) => integrator.server.listen(0, '127.0.0.1', resolve));
    integrator.origin = `http://127.0.0.1:${(integrator.server.address() as AddressInfo).port}`;
    return integrator;
  }

  /** The `webhook_url` to give the channel. */
  get url(): string {
    return `${this.origin}/integrator`;
  }

  /** The origin of the files it serves, e.g. `${fileBase}/photo.png`. */
  get fileBase(): string {
    return `${this.origin}/files`;
  }

  /** From now on every POST is answered with this body (still HTTP 200); `null` restores `{"result":"ok"}`. */
  answerWith(body: unknown | null): void {
    this.answer = body ?? { result: 'ok' };
  }

  /** Agent messages (not typing) posted for the channel with this public id. */
  messagesFor(publicId: string): ChatApiOutbound[] {
    return this.postsFor(publicId).filter((b) => b.message.type !== 'typein' && b.message.type !== 'typeout');
  }

  postsFor(publicId: string): ChatApiOutbound[] {
    return this.received.filter((r) => r.path === `/integrator/${publicId}`).map((r) => r.body);
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (req.method === 'GET' && path.startsWith('/files/')) {
      res.writeHead(200, { 'content-type': path.endsWith('.png') ? 'image/png' : 'application/octet-stream' });
      res.end(PNG);
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      try {
        this.received.push({ path, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as ChatApiOutbound });
      } catch {
        res.writeHead(400).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(this.answer));
    });
  }
}
