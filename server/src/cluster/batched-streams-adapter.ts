import { createAdapter } from '@socket.io/redis-streams-adapter';
import type { Namespace, ServerOptions } from 'socket.io';
import type { RedisClient } from './redis-client.ts';

export interface StreamsAdapterOptions {
  streamName: string;
  channelPrefix: string;
  sessionKeyPrefix: string;
}

/** What the streams adapter keeps by default: entries in the stream before Redis trims the oldest. */
const MAX_LEN = 10_000;
/** The most broadcasts one stream entry carries. */
const MAX_BATCH = 256;

// socket.io-adapter's MessageType values.
const HEARTBEAT = 2;
// These the streams adapter sends by Redis pub/sub instead of the stream.
const BROADCAST = 3;
const FETCH_SOCKETS = 7;
const SERVER_SIDE_EMIT = 9;

/** What the streams adapter sends apart, by pub/sub: their answers come back by pub/sub too. */
const isEphemeral = (m: ClusterMessage) =>
  m.type === SERVER_SIDE_EMIT ||
  m.type === FETCH_SOCKETS ||
  (m.type === BROADCAST && (m.data as { requestId?: unknown }).requestId !== undefined);

const hasBinary = (value: unknown): boolean => {
  if (!value || typeof value !== 'object') return false;
  if (value instanceof ArrayBuffer || ArrayBuffer.isView(value)) return true;
  return Object.values(value).some(hasBinary);
};

/** A message between the adapters of the nodes (socket.io-adapter's ClusterMessage). */
interface ClusterMessage {
  uid?: string;
  nsp?: string;
  type: number;
  data?: unknown;
}

/** The members of socket.io-adapter's ClusterAdapter this module wraps: the methods it calls on itself. */
type StreamsAdapter = {
  uid: string;
  /** This node's rooms and their sockets (socket.io-adapter's in-memory part). */
  rooms: Map<string, Set<string>>;
  doPublish(message: ClusterMessage): Promise<string>;
  onRawMessage(raw: Record<string, string>, offset: string): void;
  onMessage(message: ClusterMessage, offset?: string): void;
};

/**
 * socket.io's Redis streams adapter, with the room broadcasts (and room joins, leaves, heartbeats) a node makes
 * in one turn of its event loop written as one stream entry: a Chat API message broadcasts twice (message:new and
 * chat:updated), and under load each node wrote two entries per message that every other node read and decoded
 * one by one. Entries keep the order of the broadcasts within them and between them (one connection writes them
 * all), and a node's own sockets get a broadcast once its entry is in the stream, as before. Every node of a
 * cluster must run this (a node without it would not read the batched entries). A reader skips its own entries
 * and the broadcasts to rooms none of its sockets is in (the Chat API's, on a node no console watches) without
 * building their packets.
 */
export function createBatchedStreamsAdapter(client: RedisClient, options: StreamsAdapterOptions): ServerOptions['adapter'] {
  const streams = createAdapter(client, options) as unknown as (nsp: Namespace) => StreamsAdapter;
  // socket.io calls it with `new`: a function (not an arrow) that answers an object makes that object.
  function batched(nsp: Namespace) {
    const adapter = streams(nsp);
    const publishOne = adapter.doPublish.bind(adapter);
    const readOne = adapter.onRawMessage.bind(adapter);
    let pending: ClusterMessage[] = [];
    let written: Promise<string> | undefined;
    let release: ((entryId: PromiseLike<string>) => void) | undefined;

    const write = () => {
      const batch = pending;
      const done = release!;
      pending = [];
      written = release = undefined;
      const items = batch.map(({ type, data }) => (data === undefined ? { type } : { type, data }));
      done(
        client.xAdd(
          options.streamName,
          '*',
          { uid: adapter.uid, nsp: nsp.name, batch: JSON.stringify(items) },
          { TRIM: { strategy: 'MAXLEN', strategyModifier: '~', threshold: MAX_LEN } },
        ),
      );
    };

    adapter.doPublish = (message) => {
      if (isEphemeral(message) || hasBinary(message.data)) {
        // Written after what is waiting, on the same connection, so the stream keeps the order they were made in.
        if (pending.length > 0) write();
        return publishOne(message);
      }
      pending.push(message);
      if (!written) {
        written = new Promise<string>((resolve) => (release = resolve));
        setImmediate(() => {
          if (pending.length > 0) write();
        });
      }
      const entry = written;
      if (pending.length >= MAX_BATCH) write();
      return entry;
    };

    /** A broadcast only to rooms in which this node has no socket: nothing to encode here. */
    const reachesNobodyHere = ({ type, data }: ClusterMessage) => {
      if (type !== BROADCAST) return false;
      const rooms = (data as { opts?: { rooms?: unknown } } | undefined)?.opts?.rooms;
      return Array.isArray(rooms) && rooms.length > 0 && rooms.every((room) => !adapter.rooms.has(room as string));
    };

    adapter.onRawMessage = (raw, offset) => {
      if (raw.batch === undefined) return readOne(raw, offset);
      // Every node reads its own entries back from the stream; it delivered them when it wrote them.
      if (raw.uid === adapter.uid) return;
      let items: { type: number; data?: unknown }[];
      try {
        items = JSON.parse(raw.batch) as typeof items;
      } catch {
        return;
      }
      let skipped = false;
      for (const { type, data } of items) {
        const message = { uid: raw.uid, nsp: raw.nsp, type, data };
        // In order: a room join earlier in the entry is in `rooms` when a broadcast after it is read.
        if (reachesNobodyHere(message)) skipped = true;
        else adapter.onMessage(message, offset);
      }
      // The adapter counts a node alive by the messages it reads from it: a skipped broadcast still says so.
      if (skipped) adapter.onMessage({ uid: raw.uid, nsp: raw.nsp, type: HEARTBEAT }, offset);
    };
    return adapter;
  }
  return batched as unknown as ServerOptions['adapter'];
}
