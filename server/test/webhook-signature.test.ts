import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { newSigningSecret, signatureHeaders } from '../src/lib/webhook-signature.ts';

// Receivers check our signatures with a Standard Webhooks library: ours must be what the reference computes.
describe('signatureHeaders', () => {
  const now = new Date('2026-01-02T03:04:05.678Z');
  const bodies = ['{"result":"ok"}', '{"text":"héllo 👋 \\u0000 \\"quoted\\""}', JSON.stringify({ text: 'x'.repeat(70_000) })];

  it('signs as the standardwebhooks reference does, and its verify takes the headers', () => {
    for (const secret of [newSigningSecret(), newSigningSecret()])
      for (const body of bodies) {
        const headers = signatureHeaders(secret, 'evt_abc', body, now);
        expect(headers).toEqual({
          'webhook-id': 'evt_abc',
          'webhook-timestamp': '1767323045',
          'webhook-signature': new Webhook(secret).sign('evt_abc', now, body),
        });
        const fresh = signatureHeaders(secret, 'evt_abc', body);
        expect(() => new Webhook(secret).verify(body, fresh)).not.toThrow();
      }
  });

  it('a signature of one secret does not verify with another', () => {
    const headers = signatureHeaders(newSigningSecret(), 'evt_1', bodies[0]!);
    expect(() => new Webhook(newSigningSecret()).verify(bodies[0]!, headers)).toThrow();
  });
});
