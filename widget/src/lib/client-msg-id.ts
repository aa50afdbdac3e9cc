/**
 * A fresh client_msg_id (8..64 characters, widget-api.ts), chosen once per typed message: 128 random bits as
 * hex. getRandomValues, unlike randomUUID, also works on pages served over plain http.
 */
export const newClientMsgId = (): string =>
  Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
