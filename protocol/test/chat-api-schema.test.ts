import { describe, expect, it } from 'vitest';
import { chatApiInboundSchema, clientKey } from '../src/chat-api.ts';
import { codePointLength, truncateCodePoints } from '../src/text.ts';

const parse = (body: unknown) => chatApiInboundSchema.safeParse(body);

describe('text limits', () => {
  it('count and cut by code points, never splitting an emoji', () => {
    expect(codePointLength('a😀б')).toBe(3);
    expect(truncateCodePoints('😀😀😀', 2)).toBe('😀😀');
    expect(truncateCodePoints('Привет', 3)).toBe('При');
    expect(truncateCodePoints('short', 10)).toBe('short');
  });
});

describe('chat api inbound message', () => {
  it('cuts text to 1000 characters, emoji intact', () => {
    const r = parse({ sender: { id: 1 }, message: { type: 'text', text: '😀'.repeat(1500) } });
    expect(r.success && r.data.message.type === 'text' && r.data.message.text).toBe('😀'.repeat(1000));
  });

  it.each([
    [{ message: { type: 'text', text: 'x' } }],
    [{ sender: {}, message: { type: 'text', text: 'x' } }],
    [{ sender: { id: '' }, message: { type: 'text', text: 'x' } }],
    [{ sender: { id: '   ' }, message: { type: 'text', text: 'x' } }],
    [{ sender: { id: 1.5 }, message: { type: 'text', text: 'x' } }],
    [{ sender: { id: null }, message: { type: 'text', text: 'x' } }],
  ])('refuses a message without a usable sender.id: %j', (body) => {
    const r = parse(body);
    expect(r.success).toBe(false);
  });

  it('keeps an integer sender.id an integer and maps 42 and "42" to one customer', () => {
    const r = parse({ sender: { id: 42 }, message: { type: 'text', text: 'x' } });
    expect(r.success && r.data.sender.id).toBe(42);
    expect(clientKey(42)).toBe(clientKey('42'));
  });

  it('ignores a broken optional photo or url and keeps the message', () => {
    const r = parse({ sender: { id: 'a', photo: 'not a url', url: '', name: '  ' }, message: { type: 'text', text: 'x' } });
    expect(r.success).toBe(true);
    if (r.success)
      expect(r.data.sender).toEqual({
        id: 'a',
        photo: undefined,
        url: undefined,
        name: undefined,
        phone: undefined,
        email: undefined,
        invite: undefined,
      });
  });

  it('requires an http(s) file for media, tolerating a missing file_name and file_size and ignoring broken counts', () => {
    expect(parse({ sender: { id: 1 }, message: { type: 'photo', file: 'https://x.example/a.png' } }).success).toBe(true);
    expect(parse({ sender: { id: 1 }, message: { type: 'photo', file: 'file:///etc/passwd' } }).success).toBe(false);
    expect(parse({ sender: { id: 1 }, message: { type: 'document' } }).success).toBe(false);
    const sloppy = parse({
      sender: { id: 1 },
      message: { type: 'video', file: 'https://x.example/a.mp4', duration: -3, file_size: '2048', width: 0 },
    });
    expect(sloppy.success && sloppy.data.message).toMatchObject({ type: 'video', file_size: 2048, duration: undefined, width: undefined });
  });

  it('requires real coordinates for a location', () => {
    expect(parse({ sender: { id: 1 }, message: { type: 'location', latitude: 55.7, longitude: 37.6 } }).success).toBe(true);
    expect(parse({ sender: { id: 1 }, message: { type: 'location', latitude: 95, longitude: 37.6 } }).success).toBe(false);
    expect(parse({ sender: { id: 1 }, message: { type: 'location', latitude: '55', longitude: 37.6 } }).success).toBe(false);
  });

  it('refuses an unknown message type with a message that lists the known ones', () => {
    const r = parse({ sender: { id: 1 }, message: { type: 'fax' } });
    expect(r.success).toBe(false);
    if (!r.success) expect(r.error.issues[0]!.message).toMatch(/text, typein, typeout/);
  });
});
