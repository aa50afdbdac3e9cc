import type http from 'node:http';
import type { Socket } from 'node:net';

/**
 * The exchanges a stop would otherwise wait on without bound: an answer still being sent (a large download whose
 * reader hung, or is only slow) or a request still being received (a body that stopped coming). Node's server close
 * waits for every request in flight, and a systemd stop would then end in SIGKILL. After the grace period these are
 * cut, whether their client stalled or is slow: a download can be fetched again, an upload sent again. A request
 * received in full whose handler is at work (storing a message) is never cut: it finishes and answers.
 *
 * Connections are tracked, not requests: a keep-alive connection carries thousands of requests, and under overload
 * a listener and an entry per request (most of them refused) cost the node memory and time.
 */
export function trackStalledExchanges(server: http.Server) {
  const open = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    open.add(socket);
    socket.once('close', () => open.delete(socket));
  });
  return {
    /** Ends the connections of exchanges still sending an answer or receiving a request; returns how many. */
    cut(): number {
      let cut = 0;
      for (const socket of open) {
        // The answer Node is writing on this connection now (node:_http_server keeps it there).
        const res = (socket as Socket & { _httpMessage?: http.ServerResponse | null })._httpMessage;
        if (res && (res.headersSent || !res.req.complete)) {
          socket.destroy();
          cut++;
        }
      }
      return cut;
    },
  };
}
