import type { AGENT_NAMESPACE, AgentClientEvents, AgentServerEvents } from '@svc/protocol';
import { io, type Socket } from 'socket.io-client';

/** The agents' live socket, typed by the protocol's event maps so a renamed event fails to compile. */
export type AgentSocket = Socket<AgentServerEvents, AgentClientEvents>;

// Spelled out rather than imported: importing the value would bundle the protocol's schemas (zod) into
// the console. The type annotation still fails the build if the protocol renames the namespace.
const NAMESPACE: typeof AGENT_NAMESPACE = '/agents';

/** Connects to `/agents` with the agent's token; socket.io reconnects by itself after a drop or a restart. */
export function connectAgentSocket(baseUrl: string, token: string): AgentSocket {
  return io(`${baseUrl}${NAMESPACE}`, {
    auth: { token },
    // Websocket first, long-polling only where a proxy refuses websockets.
    transports: ['websocket', 'polling'],
    reconnectionDelayMax: 5000,
  });
}
