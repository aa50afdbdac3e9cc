import { createAdapter } from '@socket.io/redis-streams-adapter';
import type { Namespace, ServerOptions } from 'socket.io';
import type { RedisClient } from './redis-client.ts';
import { ADD_AND_PUSH, type EntryFields, pushedEntry, readStreamPushes } from './stream-pushes.ts';

export interface StreamsAdapterOptions {
  streamName: string;
  channelPrefix: string;
  sessionKeyPrefix: string;
}

/** What the streams adapter keeps by default: entries in the stream before Redis trims the oldest. */
const MAX_LEN = 10_000;
/** The most broadcasts one stream entry carries. */
const MAX_BATCH = 256;
/** How long a node's own broadcast waits to be read back from the stream before it reaches this node's sockets
 * anyway (a reader stalled apart from the writer: late, but not lost). */
const READ_BACK_MS = 1000;

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

/** Between room names in an entry's `rooms` field: socket.io room names here never hold it. */
const ROOMS_SEPARATOR = '\n';

/**
 * The rooms an entry's broadcasts go to, for readers to skip the entry without parsing it: '' when the entry
 * holds anything else (a room join, a broadcast to every socket), which every reader must read.
 */
function roomsField(batch: ClusterMessage[]): string {
  const rooms = new Set<string>();
  for (const { type, data } of batch) {
    const to = type === BROADCAST ? (data as { opts?: { rooms?: unknown } } | undefined)?.opts?.rooms : undefined;
    if (!Array.isArray(to) || to.length === 0) return '';
    for (const room of to) {
      // NUL separates an entry's fields when Redis pushes it (stream-pushes.ts).
      if (typeof room !== 'string' || room.includes(ROOMS_SEPARATOR) || room.includes('\0')) return '';
      rooms.add(room);
    }
  }
  return [...rooms].join(ROOMS_SEPARATOR);
}

/** A message between the adapters of the nodes (socket.io-adapter's ClusterMessage). */
interface ClusterMessage {
  uid?: string;
  nsp?: string;
  type: number;
  data?: unknown;
}

/** socket.io-adapter's BroadcastOptions. */
interface BroadcastOptions {
  rooms: Set<string>;
  except?: Set<string>;
  flags?: { local?: boolean };
}

/** The in-memory adapter's broadcast (the base class's): to this node's sockets only. The cluster adapter's own
 * version publishes first, then calls it. */
function localBroadcast(adapter: StreamsAdapter): (packet: unknown, opts: BroadcastOptions) => void {
  let base: StreamsAdapter['broadcast'] | undefined;
  for (let proto: object | null = Object.getPrototypeOf(adapter); proto; proto = Object.getPrototypeOf(proto) as object | null) {
    if (Object.hasOwn(proto, 'broadcast')) base = (proto as StreamsAdapter).broadcast;
  }
  return base!.bind(adapter);
}

/** The members of socket.io-adapter's ClusterAdapter this module wraps: the methods it calls on itself. */
type StreamsAdapter = {
  uid: string;
  /** The stream entry's fields for a message (the streams adapter's). */
  encode(message: ClusterMessage): EntryFields;
  close(): void;
  broadcast(packet: unknown, opts: BroadcastOptions): void;
  /** This node's rooms and their sockets (socket.io-adapter's in-memory part). */
  rooms: Map<string, Set<string>>;
  doPublish(message: ClusterMessage): Promise<string>;
  onRawMessage(raw: Record<string, string>, offset: string): void;
  onMessage(message: ClusterMessage, offset?: string): void;
};

export interface BatchedStreams {
  adapter: ServerOptions['adapter'];
  /**
   * Resolves once every broadcast this node has made so far is in the stream (or its write failed), at most a
   * read-back wait later (Redis hung). A node answers a request that broadcast only then: the next request, sent
   * after the answer through another node, broadcasts behind it in the stream, so a chat's messages written
   * through two nodes one after the other reach every socket in that order.
   */
  written(): Promise<void>;
}

/**
 * socket.io's Redis streams adapter, with the room broadcasts (and room joins, leaves, heartbeats) a node makes
 * in one turn of its event loop written as one stream entry: a Chat API message broadcasts twice (message:new and
 * chat:updated), and under load each node wrote two entries per message that every other node read and decoded
 * one by one. Entries keep the order of the broadcasts within them and between them (one connection writes them
 * all). A node's own sockets get its broadcast when the node reads the entry back from the stream, after the
 * entries of other nodes before it: a chat's replies written through two nodes one after the other (each one
 * answered once its broadcasts are written, `written`) reach a visitor in that order, even when this node's reader
 * lags behind its writer (socket.io-adapter delivers them as soon as the entry is written). Until a node has read one of its entries back (its reader starts at the
 * stream's end, a moment after the node) and when an entry could not be written, they go as soon as written, as
 * before. Every node of a cluster must run this (a node without it would not read the batched entries). A reader skips its own entries
 * and the broadcasts to rooms none of its sockets is in (the Chat API's, on a node no console watches) without
 * building their packets; its own such broadcasts are not encoded for its sockets either. Every entry this module
 * writes reaches the nodes by Redis pub/sub as it is added (stream-pushes.ts): the streams adapter's blocking stream
 * read would re-issue a command per entry on every node; its pub/sub for ephemeral messages stays.
 */
export function createBatchedStreamsAdapter(client: RedisClient, options: StreamsAdapterOptions): BatchedStreams {
  let closeParked = () => undefined as void;
  const parked = new Promise<void>((resolve) => (closeParked = resolve));
  const streams = createAdapter(withParkedReader(client, parked), options) as unknown as (nsp: Namespace) => StreamsAdapter;
  const channel = `${options.streamName}#entries`;
  /** Per namespace: its adapter's reader of stream entries. */
  const readers = new Map<string, (fields: EntryFields, id: string) => void>();
  let pushes: ReturnType<typeof readStreamPushes> | undefined;
  /** Adds an entry to the stream and pushes it to every node's reader, in the stream's order. EVAL rather than
   * EVALSHA: after a SCRIPT FLUSH or a Redis restart, the NOSCRIPT retries of two entries in flight could reach
   * Redis in the other order; the script's text is a few hundred bytes, and Redis caches it by its hash. */
  const addEntry = (fields: EntryFields) =>
    client.eval(ADD_AND_PUSH, {
      keys: [options.streamName],
      arguments: pushedEntry(MAX_LEN, channel, fields),
    }) as Promise<string>;
  /** Per namespace: the write the broadcasts made so far wait for, if any. */
  const unwritten = new Set<() => Promise<unknown> | undefined>();
  // socket.io calls it with `new`: a function (not an arrow) that answers an object makes that object.
  function batched(nsp: Namespace) {
    const adapter = streams(nsp);
    pushes ??= readStreamPushes(client, { streamName: options.streamName, channel }, (fields, id) =>
      readers.get(fields.nsp!)?.(fields, id),
    );
    const publishOne = adapter.doPublish.bind(adapter);
    const readOne = adapter.onRawMessage.bind(adapter);
    const broadcastEverywhere = adapter.broadcast.bind(adapter);
    const broadcastHere = localBroadcast(adapter);
    let pending: ClusterMessage[] = [];
    /** The local deliveries of the broadcasts in `pending`. */
    let pendingHere: (() => void)[] = [];
    let written: Promise<string> | undefined;
    /** The last entry written: one connection writes them all, so its answer comes after the earlier ones'. */
    let lastAdded: Promise<string> | undefined;
    let release: ((entryId: PromiseLike<string>) => void) | undefined;
    /** Entries this node wrote, numbered: the number in an entry read back finds its local deliveries. */
    let entries = 0;
    /** Set once an entry of this node came back through the stream: its reader is reading. */
    let readingBack = false;
    const unreadHere = new Map<number, { deliveries: (() => void)[]; timer: NodeJS.Timeout }>();

    const deliverHere = (entry: number) => {
      const waiting = unreadHere.get(entry);
      if (!waiting) return;
      unreadHere.delete(entry);
      clearTimeout(waiting.timer);
      for (const deliver of waiting.deliveries) deliver();
    };

    /** Entries written whose XADD has not answered yet. */
    let inFlight = 0;

    const write = () => {
      const batch = pending;
      const here = pendingHere;
      const done = release!;
      pending = [];
      pendingHere = [];
      written = release = undefined;
      const entry = ++entries;
      const items = batch.map(({ type, data }) => (data === undefined ? { type } : { type, data }));
      const added = addEntry({
        uid: adapter.uid,
        nsp: nsp.name,
        entry: String(entry),
        rooms: roomsField(batch),
        batch: JSON.stringify(items),
      });
      done(added);
      lastAdded = added;
      inFlight++;
      const answered = () => {
        inFlight--;
        if (inFlight === 0 && pending.length > 0) write();
      };
      added.then(answered, answered);
      if (here.length === 0) return;
      if (readingBack) {
        const timer = setTimeout(() => deliverHere(entry), READ_BACK_MS);
        timer.unref();
        unreadHere.set(entry, { deliveries: here, timer });
        // Not in the stream: nothing will come back.
        added.catch(() => deliverHere(entry));
      } else {
        const deliverAll = () => here.forEach((deliver) => deliver());
        added.then(deliverAll, deliverAll);
      }
    };

    const enqueue = (message: ClusterMessage, here?: () => void) => {
      pending.push(message);
      if (here) pendingHere.push(here);
      if (!written) {
        written = new Promise<string>((resolve) => (release = resolve));
        // While an entry is on its way, what follows waits for its answer and goes as one entry then; but no longer
        // than a read-back (Redis hung or gone), so this node's own sockets get it late, not never.
        setImmediate(() => {
          if (pending.length === 0) return;
          if (inFlight === 0) return write();
          const waiting = written;
          setTimeout(() => {
            if (written === waiting && pending.length > 0) write();
          }, READ_BACK_MS).unref();
        });
      }
      const entry = written;
      if (pending.length >= MAX_BATCH) write();
      return entry;
    };

    unwritten.add(() => (pending.length > 0 ? written : inFlight > 0 ? lastAdded : undefined));

    adapter.doPublish = (message) => {
      if (isEphemeral(message) || hasBinary(message.data)) {
        // Written after what is waiting, on the same connection, so the stream keeps the order they were made in.
        if (pending.length > 0) write();
        return isEphemeral(message) ? publishOne(message) : addEntry(adapter.encode(message));
      }
      return enqueue(message);
    };

    /** Whether a broadcast to `rooms` reaches a socket of this node: the in-memory adapter encodes the packet
     * before it looks for sockets, and the Chat API's broadcasts go to channel rooms no console may watch here. */
    const someSocketHere = (rooms: Set<string>) => {
      if (rooms.size === 0) return true;
      for (const room of rooms) if (adapter.rooms.has(room)) return true;
      return false;
    };

    adapter.broadcast = (packet, opts) => {
      if (opts.flags?.local || hasBinary(packet)) return broadcastEverywhere(packet, opts);
      const data = { packet, opts: { rooms: [...opts.rooms], except: [...(opts.except ?? [])], flags: opts.flags } };
      // Which sockets are in the rooms is looked up when the entry is read back, as the in-memory adapter does.
      const here = () => {
        if (someSocketHere(opts.rooms)) broadcastHere(packet, opts);
      };
      // A refused write is answered by `write` (the sockets here get it at once); only the promise is left over.
      enqueue({ uid: adapter.uid, nsp: nsp.name, type: BROADCAST, data }, here).catch(() => undefined);
    };

    /** Whether an entry's `rooms` field (see `roomsField`) names only rooms without a socket of this node. */
    const nothingHere = (field: string) => {
      if (field === '') return false;
      for (const room of field.split(ROOMS_SEPARATOR)) if (adapter.rooms.has(room)) return false;
      return true;
    };

    /** A broadcast only to rooms in which this node has no socket: nothing to encode here. */
    const reachesNobodyHere = ({ type, data }: ClusterMessage) => {
      if (type !== BROADCAST) return false;
      const rooms = (data as { opts?: { rooms?: unknown } } | undefined)?.opts?.rooms;
      return Array.isArray(rooms) && rooms.length > 0 && rooms.every((room) => !adapter.rooms.has(room as string));
    };

    adapter.onRawMessage = (raw, offset) => {
      if (raw.batch === undefined) return readOne(raw, offset);
      if (raw.uid === adapter.uid) {
        readingBack = true;
        return deliverHere(Number(raw.entry));
      }
      // Only broadcasts to rooms none of this node's sockets is in: the entry is not even parsed.
      if (raw.rooms !== undefined && nothingHere(raw.rooms))
        return adapter.onMessage({ uid: raw.uid, nsp: raw.nsp, type: HEARTBEAT }, offset);
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
    readers.set(nsp.name, adapter.onRawMessage);
    const closeAdapter = adapter.close.bind(adapter);
    adapter.close = () => {
      readers.delete(nsp.name);
      closeAdapter();
      if (readers.size > 0) return;
      pushes?.close();
      closeParked();
    };
    return adapter;
  }
  return {
    adapter: batched as unknown as ServerOptions['adapter'],
    written() {
      const waits = [...unwritten].flatMap((outstanding) => outstanding() ?? []);
      if (waits.length === 0) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, READ_BACK_MS);
        void Promise.allSettled(waits).then(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    },
  };
}

/**
 * The client the streams adapter is given: the stream reader it duplicates from it (the one that calls XREAD) reads
 * nothing until `closed`, as entries reach this module by Redis pushes instead (stream-pushes.ts); the streams
 * adapter then ends its read loop and disconnects it. Its other duplicate (its pub/sub subscriber) is untouched.
 */
function withParkedReader(client: RedisClient, closed: Promise<void>): RedisClient {
  const parkedRead = () => closed.then(() => null);
  const pass = <T extends object>(target: T, prop: string | symbol) => {
    const value: unknown = Reflect.get(target, prop, target);
    return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
  };
  return new Proxy(client, {
    get(target, prop) {
      if (prop !== 'duplicate') return pass(target, prop);
      return () =>
        new Proxy(target.duplicate(), {
          get: (duplicate, name) => (name === 'xRead' || name === 'XREAD' ? parkedRead : pass(duplicate, name)),
        });
    },
  });
}
