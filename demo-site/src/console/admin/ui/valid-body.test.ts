import { createChatApiChannelSchema } from '@svc/protocol';
import { describe, expect, it } from 'vitest';
import { validBody } from './valid-body.ts';

describe('validBody', () => {
  it('answers the parsed body, trimmed and with defaults, as the API would store it', () => {
    expect(validBody(createChatApiChannelSchema, { kind: 'chat_api', name: '  Shop ', webhook_url: 'https://a.example/x' })).toEqual({
      kind: 'chat_api',
      name: 'Shop',
      webhook_url: 'https://a.example/x',
      chunked: false,
      agent_ids: [],
    });
  });

  it('throws the message the API gives for the same body', () => {
    expect(() => validBody(createChatApiChannelSchema, { kind: 'chat_api', name: '', webhook_url: 'nope' })).toThrow(
      'Invalid body: name: must not be empty; webhook_url: must be an http:// or https:// URL',
    );
  });
});
