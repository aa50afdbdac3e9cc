export interface ChannelSitesRepo {
  /** The sites (origins) allowed to show a widget channel's chat frame, sorted; none stored: any site. */
  list(channelId: number): Promise<string[]>;
  /** Replaces the whole list. */
  set(channelId: number, origins: string[]): Promise<void>;
}
