import type { ChannelKind } from '@svc/protocol';

const KIND_LABELS: Record<ChannelKind, string> = { chat_api: 'Chat API', widget: 'Widget' };

/** Which channel a chat came through: its name and its kind. */
export function ChannelBadge({ name, kind }: { name: string; kind: ChannelKind }) {
  return (
    <span class={`channel-badge channel-badge--${kind}`}>
      {name} · {KIND_LABELS[kind] ?? kind}
    </span>
  );
}
