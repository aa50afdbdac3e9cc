import type { RedisClient } from './redis-client.ts';

/** An entry's fields, as XADD wrote them. */
export type EntryFields = Record<string, string>;

/** Between the parts of a pushed entry: its id, then its fields' names and values. No field holds it (see
 * `pushedEntry`). */
const SEPARATOR = '\0';

/** How many entries one catch-up read asks for: each holds up to 256 broadcasts, and the read shares the
 * connection of this node's own writes (the streams adapter read 100 at a time too). */
const PAGE = 100;
/** How long a failed catch-up waits before it tries again (Redis still away). */
const RETRY_MS = 500;

/**
 * Adds an entry to the stream (KEYS[1]) and publishes it on ARGV[2] as `id NUL name NUL value ...`: one script,
 * so the pushes go out in the stream's order. ARGV[1] is the MAXLEN ~ threshold, then the fields' names and values.
 */
export const ADD_AND_PUSH = `local id = redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[1], '*', unpack(ARGV, 3))
redis.call('PUBLISH', ARGV[2], id .. '\\0' .. table.concat(ARGV, '\\0', 3))
return id`;

/** The arguments of `ADD_AND_PUSH` for one entry. */
export function pushedEntry(maxLen: number, channel: string, fields: EntryFields): string[] {
  const args = [String(maxLen), channel];
  for (const [name, value] of Object.entries(fields)) {
    // The adapter's fields are JSON, base64, numbers, the adapter's uid and namespace names (the server's own) and
    // room names (batched-streams-adapter.ts leaves `rooms` empty if one holds the separator).
    if (value.includes(SEPARATOR)) throw new Error(`stream field ${name} holds a NUL`);
    args.push(name, value);
  }
  return args;
}

/** Whether stream id `a` comes after `b` (`ms-seq`, compared as numbers). */
function isAfter(a: string, b: string): boolean {
  const [aMs, aSeq] = a.split('-');
  const [bMs, bSeq] = b.split('-');
  return aMs === bMs ? Number(aSeq) > Number(bSeq) : Number(aMs) > Number(bMs);
}

/** The first id after `id`: XRANGE's exclusive `(id` needs Redis 6.2. */
function nextId(id: string): string {
  const [ms, seq] = id.split('-');
  return `${ms}-${Number(seq) + 1}`;
}

function parsePush(message: string): [string, EntryFields] {
  const parts = message.split(SEPARATOR);
  const fields: EntryFields = {};
  for (let i = 1; i + 1 < parts.length; i += 2) fields[parts[i]!] = parts[i + 1]!;
  return [parts[0]!, fields];
}

export interface StreamPushes {
  close(): void;
}

/**
 * Reads the stream's entries as Redis pushes them (`ADD_AND_PUSH`), from the stream's end when it starts, each
 * once and in the stream's order. The pushes come on a connection of their own; when it comes back after a drop
 * (Redis restarted, a network blip, an output-buffer kill), node-redis subscribes again before it says 'ready',
 * and then the entries written meanwhile are read from the stream (after the last one handed over) ahead of the
 * pushes that arrived since.
 */
export function readStreamPushes(
  client: RedisClient,
  options: { streamName: string; channel: string },
  onEntry: (fields: EntryFields, id: string) => void,
): StreamPushes {
  const subscriber = client.duplicate();
  /** The last entry handed over. */
  let last = '0-0';
  /** Pushes that wait for a catch-up from the stream; undefined while pushes are handed over as they come. */
  let held: [string, EntryFields][] | undefined = [];
  let catchingUp: Promise<void> | undefined;
  let again = false;
  let closed = false;

  const handOver = (id: string, fields: EntryFields) => {
    if (!isAfter(id, last)) return;
    last = id;
    if (fields.nsp) onEntry(fields, id);
  };
  const onPush = (message: string) => {
    const [id, fields] = parsePush(message);
    if (held) held.push([id, fields]);
    else handOver(id, fields);
  };
  const hold = () => void (held ??= []);

  const readMissed = async () => {
    for (;;) {
      const page = (await client.xRange(options.streamName, nextId(last), '+', { COUNT: PAGE })) ?? [];
      for (const { id, message } of page) handOver(id, message as EntryFields);
      if (page.length < PAGE) return;
    }
  };
  const catchUp = () => {
    hold();
    if (catchingUp) return void (again = true);
    catchingUp = (async () => {
      do {
        again = false;
        try {
          await readMissed();
        } catch {
          if (closed) return;
          await new Promise((resolve) => setTimeout(resolve, RETRY_MS).unref());
          again = true;
        }
      } while (again && !closed);
      // The connection dropped again while it read: keep holding, the 'ready' after its resubscription reads from
      // here once more (pushes handed over before it would skip what was written while it was down).
      if (closed || !subscriber.isReady) return;
      const waiting = held ?? [];
      held = undefined;
      for (const [id, fields] of waiting) handOver(id, fields);
    })().finally(() => (catchingUp = undefined));
  };

  // Errors are the main client's to log (redis-connection.ts); this one reconnects by itself.
  subscriber.on('error', hold);
  subscriber.on('reconnecting', hold);
  /** Subscribes, from the stream's newest entry on; tried again until it succeeds (Redis away while the node
   * starts): a node that gave up would never hear the others. */
  const start = async () => {
    for (;;) {
      try {
        const [newest] = (await client.xRevRange(options.streamName, '+', '-', { COUNT: 1 })) ?? [];
        if (newest) last = newest.id;
        if (closed) return;
        if (!subscriber.isOpen) await subscriber.connect();
        await subscriber.subscribe(options.channel, onPush);
        break;
      } catch {
        if (closed) return;
        await new Promise((resolve) => setTimeout(resolve, RETRY_MS).unref());
      }
    }
    subscriber.on('ready', catchUp);
    catchUp();
  };
  void start();

  return {
    close() {
      closed = true;
      if (subscriber.isOpen) subscriber.destroy();
    },
  };
}
