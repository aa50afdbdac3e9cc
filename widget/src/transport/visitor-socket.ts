import type { VisitorClientEvents, VisitorServerEvents } from '@svc/protocol';
import { io, type Socket } from 'socket.io-client';

export type VisitorSocket = Socket<VisitorServerEvents, VisitorClientEvents>;

// protocol/src/widget-api.ts VISITOR_NAMESPACE; a value import from @svc/protocol would bring zod along.
const VISITOR_NAMESPACE = '/visitors';

/**
 * The visitor's live connection. `serviceUrl` is the service's base (the frame is served at <base>/widget/),
 * so a service behind a path prefix works too. The token is read on every (re)connection: the first session
 * stores it, and every later connection comes back as the same visitor.
 */
export function connectVisitorSocket(serviceUrl: URL, widgetId: string, token: () => string | null): VisitorSocket {
  return io(new URL(VISITOR_NAMESPACE.slice(1), serviceUrl).href, {
    path: `${serviceUrl.pathname}socket.io/`,
    auth: (send) => {
      const visitorToken = token();
      send(visitorToken ? { widget_id: widgetId, visitor_token: visitorToken } : { widget_id: widgetId });
    },
    transports: ['websocket', 'polling'],
    tryAllTransports: true,
    reconnectionDelay: 500,
    reconnectionDelayMax: 3000,
    withCredentials: false,
  });
}
