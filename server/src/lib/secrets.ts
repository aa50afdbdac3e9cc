import crypto from 'node:crypto';

/** A random, URL-safe secret with `bytes` bytes of entropy. */
export function randomToken(bytes = 32): string {
  return crypto.randomBytes(bytes).toString('base64url');
}

/** Tokens are stored as their SHA-256; a leaked database does not leak usable tokens. The one-shot hash: every
 * agent request hashes its token, and a Hash object per call cost twice as much. */
export function hashToken(token: string): string {
  return crypto.hash('sha256', token, 'hex');
}

/** What `matchesDigest` compares against: a secret that is checked often is hashed once. */
export const secretDigest = (secret: string): Buffer => crypto.hash('sha256', secret, 'buffer');

/** Whether `candidate` is the secret of `digest`, in time that does not depend on where they differ. */
export function matchesDigest(candidate: string, digest: Buffer): boolean {
  // Equal-length digests whatever the lengths; the one-shot hash makes no Hash object per call.
  return crypto.timingSafeEqual(secretDigest(candidate), digest);
}

/** Compares two strings in time that does not depend on where they differ. */
export function safeEqual(a: string, b: string): boolean {
  return matchesDigest(a, secretDigest(b));
}
