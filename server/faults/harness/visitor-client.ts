import { VISITOR_NAMESPACE, type VisitorClientEvents, type VisitorServerEvents, type WidgetSession } from '@svc/protocol';
import { io, type Socket } from 'socket.io-client';

type VisitorSocket = Socket<VisitorServerEvents, VisitorClientEvents>;

/**
 * A widget visitor as the widget behaves (docs/widget.md, "Offline and exactly once"): each message keeps
 * its client_msg_id; unacknowledged ones are sent again, in order and one at a time, after each reconnection.
 * It shows the history of every `session` and the `message:new` events, merged by message id.
 */
export function startVisitor(base: string, widgetId: string, name: string) {
  const socket: VisitorSocket = io(`${base}${VISITOR_NAMESPACE}`, {
    auth: { widget_id: widgetId },
    transports: ['websocket'],
    reconnection: false,
    forceNew: true,
  });
  const shown = new Map<number, { author: string; text: string }>();
  const outbox: { id: string; text: string }[] = [];
  let token: string | undefined;
  let chatId: number | undefined;
  let lastLiveId = 0;
  let liveInversions = 0;
  let liveRepeats = 0;
  let sent = 0;
  let resends = 0;
  let flushing = false;
  let sessions = 0;

  const show = (m: { id: number; author: string; text?: string }) => shown.set(m.id, { author: m.author, text: m.text ?? '' });

  async function flush(): Promise<void> {
    if (flushing) return;
    flushing = true;
    try {
      while (outbox.length > 0 && socket.connected) {
        const next = outbox[0]!;
        const ack = await socket
          .timeout(3000)
          .emitWithAck('message:send', { client_msg_id: next.id, text: next.text })
          .catch(() => undefined);
        if (!ack) {
          resends += 1;
          continue;
        } // lost with the connection (or late): sent again with the same id after reconnecting
        if (!ack.ok) throw new Error(`${name}: message refused: ${ack.error}`);
        chatId ??= ack.value!.chat_id;
        show(ack.value!);
        outbox.shift();
      }
    } finally {
      flushing = false;
    }
  }

  socket.on('session', (session: WidgetSession) => {
    sessions += 1;
    token = session.visitor_token;
    lastLiveId = 0;
    for (const m of session.chat?.messages ?? []) show(m);
    void flush();
  });
  socket.on('message:new', (m) => {
    if (shown.has(m.id) && m.author === 'agent' && m.id <= lastLiveId) liveRepeats += 1;
    if (m.author === 'agent' && m.id < lastLiveId) liveInversions += 1;
    if (m.author === 'agent') lastLiveId = Math.max(lastLiveId, m.id);
    show(m);
  });

  return {
    name,
    chatId: () => chatId,
    connected: () => socket.connected,
    sessions: () => sessions,
    pending: () => outbox.length,
    /** Sends whose acknowledgement was lost, so that the message went again with the same client_msg_id. */
    resends: () => resends,
    liveInversions: () => liveInversions,
    liveRepeats: () => liveRepeats,
    /** Types a message: it is sent now when connected, else after the next reconnection. */
    send(text: string) {
      sent += 1;
      outbox.push({ id: `${name}-msg-${sent}`, text });
      void flush();
    },
    /** The connection drops: `abrupt` closes the transport under the socket, else the client disconnects. */
    drop(abrupt: boolean) {
      if (abrupt) socket.io.engine?.close();
      else socket.disconnect();
    },
    /** Comes back as the same visitor. */
    reconnect() {
      if (socket.connected) return;
      socket.auth = { widget_id: widgetId, ...(token ? { visitor_token: token } : {}) };
      socket.connect();
    },
    /** Agent messages shown, in message id order. */
    agentTexts: () => [...shown.entries()].sort(([a], [b]) => a - b).flatMap(([, m]) => (m.author === 'agent' ? [m.text] : [])),
    close: () => void socket.disconnect(),
  };
}
export type Visitor = ReturnType<typeof startVisitor>;
