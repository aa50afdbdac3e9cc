import { Writable } from 'node:stream';
import type { Context } from 'koa';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { requestLog } from '../src/http/request-log.ts';

/** The lines a logger at `level` writes for one request to `path` that the app answers with `status`. */
async function logLines(level: string, path: string, status: number): Promise<{ lines: Record<string, unknown>[]; handled: boolean }> {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  let handled = false;
  const ctx = { method: 'POST', path, status: 404 } as Context;
  await requestLog(pino({ level }, sink))(ctx, async () => {
    handled = true;
    ctx.status = status;
  });
  return { lines, handled };
}

describe('request log', () => {
  it('writes one line per request at info, with the Chat API secret taken out of the path', async () => {
    const { lines, handled } = await logLines('info', '/chat-api/s3cret-random/pub-1', 200);
    expect(handled).toBe(true);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ msg: 'request', method: 'POST', route: '/chat-api/:random/pub-1', status: 200 });
    expect(JSON.stringify(lines)).not.toContain('s3cret');
  });

  it('writes nothing at warn, and the request is still handled', async () => {
    const { lines, handled } = await logLines('warn', '/chat-api/s3cret-random/pub-1', 200);
    expect(handled).toBe(true);
    expect(lines).toHaveLength(0);
  });
});
