import { describe, expect, it } from 'vitest';
import { chatApiCurlExample } from './curl-example.ts';

describe('chatApiCurlExample', () => {
  const text = chatApiCurlExample('https://svc.example/chat-api/r4nd/pub1', 'https://svc.example/chat-api/r4nd/pub1/status');

  it('posts a spec 2.1 text message to the endpoint', () => {
    const body = /-d '(.*)'$/m.exec(text)?.[1];
    expect(JSON.parse(body!)).toEqual({ sender: { id: 'customer-1', name: 'Ann Customer' }, message: { type: 'text', text: 'Hello!' } });
    expect(text).toContain("curl -X POST 'https://svc.example/chat-api/r4nd/pub1'");
  });

  it('reads the status URL', () => {
    expect(text.split('\n').at(-1)).toBe("curl 'https://svc.example/chat-api/r4nd/pub1/status'");
  });

  it('quotes a single quote for the shell', () => {
    expect(chatApiCurlExample("https://x.example/a'b", 'https://x.example/s')).toContain(`'https://x.example/a'\\''b'`);
  });
});
