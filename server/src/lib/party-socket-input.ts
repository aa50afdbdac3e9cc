import { cleanPartyInput, TooDeeplyNested } from '@svc/protocol';
import type { Namespace } from 'socket.io';

/**
 * The text rule (docs/errors.md "Text") for a socket namespace: the handshake's auth and every event's
 * arguments are cleaned before any handler of the namespace sees them. Register it before the handlers.
 */
export function cleanPartySocketInput(nsp: Namespace): void {
  nsp.use((socket, next) => {
    try {
      socket.handshake.auth = cleanPartyInput(socket.handshake.auth) as Record<string, unknown>;
      next();
    } catch {
      next(new Error('invalid_request'));
    }
  });
  nsp.on('connection', (socket) => {
    socket.use((packet, next) => {
      // packet is [event, ...args, ack?]: the handlers receive this very array, so it is cleaned in place.
      for (let i = 1; i < packet.length; i++) {
        try {
          packet[i] = cleanPartyInput(packet[i]);
        } catch (err) {
          // Too deep to be any event's payload: the handler sees nothing and answers its ack as for a bad payload.
          if (!(err instanceof TooDeeplyNested)) throw err;
          packet[i] = undefined;
        }
      }
      next();
    });
  });
}
