import type { ChannelView } from '@svc/protocol';
import type { AdminApi } from '../admin-api.ts';
import { ConfirmButton } from '../ui/confirm-button.tsx';
import { FormError } from '../ui/form-error.tsx';
import { useSubmit } from '../ui/use-submit.ts';

const consequence = {
  chat_api: 'Its endpoint and status URL stop working.',
  widget: 'The widget disappears from every page that embeds it.',
} as const;

/** Deletes the channel after a confirmation; its chats stay in the database but leave the agents' lists. */
export function DeleteChannel({ api, channel, onDeleted }: { api: AdminApi; channel: ChannelView; onDeleted: () => void }) {
  const deletion = useSubmit();
  const remove = () =>
    deletion.run(async () => {
      await api.deleteChannel(channel.id);
      onDeleted();
    });
  return (
    <div class="danger-zone">
      <ConfirmButton
        label="Delete channel"
        question={`Delete the channel "${channel.name}"? ${consequence[channel.kind]}`}
        confirmLabel="Yes, delete it"
        onConfirm={remove}
      />
      <FormError message={deletion.error} />
    </div>
  );
}
