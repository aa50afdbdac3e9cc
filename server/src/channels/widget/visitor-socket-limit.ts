/** Issue 24: one visitor token holds at most this many sockets at once (tabs, or a script opening thousands). */
export const MAX_SOCKETS_PER_VISITOR = 20;

/**
 * Admits a visitor's new socket while the visitor holds fewer than `max`. `countLive` counts the sockets in the
 * visitor's room on every node (socket.io's fetchSockets goes through the Redis adapter when the server has one),
 * so the limit holds across nodes and heals by itself when a node dies. Sockets admitted on this node but not yet
 * in their room count too, so a burst of connections at once cannot slip past it; call `settled` once an admitted
 * socket is in its room (or gave up).
 */
export function createVisitorSocketLimit(countLive: (visitorId: number) => Promise<number>, max = MAX_SOCKETS_PER_VISITOR) {
  const admitting = new Map<number, number>();
  const settled = (visitorId: number) => {
    const left = (admitting.get(visitorId) ?? 1) - 1;
    if (left > 0) admitting.set(visitorId, left);
    else admitting.delete(visitorId);
  };
  return {
    async admit(visitorId: number): Promise<boolean> {
      admitting.set(visitorId, (admitting.get(visitorId) ?? 0) + 1);
      let live: number;
      try {
        live = await countLive(visitorId);
      } catch (err) {
        settled(visitorId);
        throw err;
      }
      if (live + admitting.get(visitorId)! <= max) return true;
      settled(visitorId);
      return false;
    },
    settled,
  };
}
