import crypto from 'node:crypto';
import { Webhook } from 'standardwebhooks';

/** A new Standard Webhooks secret: `whsec_` and 24 random bytes in base64. */
export function newSigningSecret(): string {
  return `whsec_${crypto.randomBytes(24).toString('base64')}`;
}

/**
 * Standard Webhooks headers for one attempt (standardwebhooks.com): the id stays the same across attempts so
 * the receiver can de-duplicate; the timestamp and signature are of this attempt.
 */
export function signatureHeaders(secret: string, id: string, body: string, now = new Date()): Record<string, string> {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
    'webhook-signature': new Webhook(secret).sign(id, now, body),
  };
}
