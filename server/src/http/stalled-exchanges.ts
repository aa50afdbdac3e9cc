import type http from 'node:http';

/**
 * The exchanges a stop would otherwise wait on without bound: a client that stopped reading an answer (a large
 * download whose reader hung) or stopped sending its request's body. Node's server close waits for every request
 * in flight, and a systemd stop would then end in SIGKILL. Requests fully received whose handler is still at work
 * (storing a message) are never cut: they finish and answer.
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
