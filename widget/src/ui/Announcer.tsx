import type { WidgetModel } from '../frame/widget-model.ts';
import { useStore } from './use-store.ts';

/**
 * The polite live region: each new message (and the chat's end) is read out once. The newest announcement
 * is a new node each time (keyed by its id), so two equal replies in a row are both read.
 */
export function Announcer({ model }: { model: WidgetModel }) {
  const announcement = useStore(model.announcement);
  return (
    <div class="sr" aria-live="polite" data-testid="announcements">
      {announcement && <p key={announcement.id}>{announcement.text}</p>}
    </div>
  );
}
