import { createHmac, timingSafeEqual } from 'node:crypto';

/** Verified visitors: the site's server signs the user id with the channel's identity secret. */
export const signUserToken = (secret: string, token: string) => createHmac('sha256', secret).update(token, 'utf8').digest('hex');

/** Whether `signature` (hex, any case) is the token's signature under `secret`, compared in constant time. */
export function isSignedUserToken(secret: string, token: string, signature: string): boolean {
  const expected = Buffer.from(signUserToken(secret, token), 'hex');
  const given = Buffer.from(signature.toLowerCase(), 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
