import type { AgentView, ChannelView } from '@svc/protocol';
import type { AdminApi } from '../admin-api.ts';

/** What the screen of one channel (Chat API or widget) gets from the Channels screen. */
export interface ChannelDetailsProps {
  api: AdminApi;
  channel: ChannelView;
  agents: AgentView[];
  /** The channel changed on the server: read it again. */
  onChanged: () => void;
  /** Back to the list (after a delete too). */
  onBack: () => void;
}
