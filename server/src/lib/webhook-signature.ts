import crypto from 'node:crypto';

const SECRET_PREFIX = 'whsec_';

/** A new Standard Webhooks secret: `whsec_` and 24 random bytes in base64. */
export function newSigningSecret(): string {
  return `${SECRET_PREFIX}${crypto.randomBytes(24).toString('base64')}`;
}

/** The HMAC key a secret holds: the base64 after `whsec_`. */
function keyOf(secret: string): Buffer {
  const key = Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
  if (key.length === 0) throw new Error("Secret can't be empty.");
  return key;
}

/**
 * Standard Webhooks headers for one attempt (standardwebhooks.com): the id stays the same across attempts so
 * the receiver can de-duplicate; the timestamp and signature are of this attempt. The HMAC-SHA256 of
 * `id.timestamp.body` is Node's own (the `standardwebhooks` package hashes in JavaScript, a cost per attempt).
 */
export function signatureHeaders(secret: string, id: string, body: string, now = new Date()): Record<string, string> {
  const timestamp = String(Math.floor(now.getTime() / 1000));
  const signature = crypto.createHmac('sha256', keyOf(secret)).update(`${id}.${timestamp}.${body}`).digest('base64');
  return { 'webhook-id': id, 'webhook-timestamp': timestamp, 'webhook-signature': `v1,${signature}` };
}
