import type { ErasureCounts } from '@svc/protocol';

const kinds: [keyof ErasureCounts, string, string][] = [
  ['clients', 'customer', 'customers'],
  ['chats', 'chat', 'chats'],
  ['messages', 'message', 'messages'],
  ['calls', 'call', 'calls'],
  ['offline_messages', 'offline message', 'offline messages'],
  ['deliveries', 'delivery', 'deliveries'],
  ['files', 'file', 'files'],
];

/** `1 customer, 2 chats, 14 messages`: what an erasure removed, leaving out the kinds it removed none of. */
export function erasedSummary(counts: ErasureCounts): string {
  const parts = kinds.filter(([key]) => counts[key] > 0).map(([key, one, many]) => `${counts[key]} ${counts[key] === 1 ? one : many}`);
  return parts.length > 0 ? parts.join(', ') : 'nothing';
}
