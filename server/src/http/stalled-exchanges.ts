import type http from 'node:http';

/**
 * The exchanges a stop would otherwise wait on without bound: an answer still being sent (a large download whose
 * reader hung, or is only slow) or a request still being received (a body that stopped coming). Node's server close
 * waits for every request in flight, and a systemd stop would then end in SIGKILL. After the grace period these are
 * cut, whether their client stalled or is slow: a download can be fetched again, an upload sent again. A request
 * received in full whose handler is at work (storing a message) is never cut: it finishes and answers.
 */
export function trackStalledExchanges(server: http.Server) {
  const open = new Set<{ req: http.IncomingMessage; res: http.ServerResponse }>();
  server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    const exchange = { req, res };
    open.add(exchange);
    res.once('close', () => open.delete(exchange));
  });
  return {
    /** Ends the connections of exchanges still waiting on their client; returns how many. */
    cut(): number {
      let cut = 0;
      for (const { req, res } of open)
        if (res.headersSent || !req.complete) {
          res.destroy();
          cut++;
        }
      return cut;
    },
  };
}
