import type { VisitorMessageView } from '@svc/protocol';
import type { Store } from '../state/store.ts';
import { markFailed, markSending, nextToSend, requeue, requeueSending, settle, type Outbox } from './outbox.ts';
import type { VisitorSocket } from './visitor-socket.ts';

const ACK_TIMEOUT_MS = 10_000;
const RATE_LIMIT_PAUSE_MS = 5_000;

/**
 * Sends the outbox over the socket, one message at a time and in order, whenever the connection is up (after
 * the server's `session`, so the handshake is done). A dropped connection puts the message on the wire back in
 * the queue; it is sent again with the same client_msg_id once reconnected, and the server keeps it once.
 */
export function startSender(socket: VisitorSocket, outbox: Store<Outbox>, confirmed: (message: VisitorMessageView) => void) {
  let ready = false;

  function flush() {
    if (!ready || !socket.connected) return;
    const item = nextToSend(outbox.get());
    if (!item) return;
    outbox.set((o) => markSending(o, item.client_msg_id));
    const attempt = item.attempt + 1;
    const current = () =>
      outbox.get().find((i) => i.client_msg_id === item.client_msg_id && i.attempt === attempt && i.state === 'sending');
    const message = {
      client_msg_id: item.client_msg_id,
      ...(item.text.trim() ? { text: item.text } : {}),
      ...(item.button_id ? { button_id: item.button_id } : {}),
      ...(item.attachment ? { attachment: item.attachment } : {}),
    };
    socket.timeout(ACK_TIMEOUT_MS).emit('message:send', message, (err, answer) => {
      if (!err && answer.ok && answer.value) {
        // A late answer to an older attempt is still the stored message: confirm it all the same.
        outbox.set((o) => settle(o, item.client_msg_id));
        confirmed(answer.value);
      } else if (!current()) {
        return;
      } else if (err) {
        outbox.set((o) => requeue(o, item.client_msg_id));
      } else if (!answer.ok && answer.error === 'rate_limited') {
        outbox.set((o) => requeue(o, item.client_msg_id));
        return void setTimeout(flush, RATE_LIMIT_PAUSE_MS);
      } else {
        outbox.set((o) => markFailed(o, item.client_msg_id, answer.ok ? 'no answer' : answer.error));
      }
      flush();
    });
  }

  socket.on('session', () => {
    ready = true;
    flush();
  });
  socket.on('disconnect', () => {
    ready = false;
    outbox.set(requeueSending);
  });
  return { flush };
}
