import type { ChannelView } from '@svc/protocol';

interface ChannelCheckboxesProps {
  legend: string;
  channels: ChannelView[];
  checked: number[];
  onChange: (ids: number[]) => void;
}

/** The channels whose chats an agent receives. */
export function ChannelCheckboxes({ legend, channels, checked, onChange }: ChannelCheckboxesProps) {
  const toggle = (id: number, on: boolean) => onChange(on ? [...checked, id].sort((a, b) => a - b) : checked.filter((c) => c !== id));
  return (
    <fieldset class="checkbox-group">
      <legend>{legend}</legend>
      {channels.length === 0 && <p class="muted">No channels yet.</p>}
      {channels.map((channel) => (
        <label key={channel.id} class="checkbox">
          <input type="checkbox" checked={checked.includes(channel.id)} onChange={(e) => toggle(channel.id, e.currentTarget.checked)} />
          <span>
            {channel.name} <span class="muted">({channel.kind === 'chat_api' ? 'Chat API' : 'widget'})</span>
          </span>
        </label>
      ))}
    </fieldset>
  );
}
