/** What a saved reply's placeholders stand for in the chat at hand. */
export interface PlaceholderValues {
  'client.name': string | null;
  'agent.name': string;
}

/**
 * Fills `{client.name}` and `{agent.name}` into a saved reply. An unknown placeholder, or a client without a
 * name, stays as typed, so the agent sees what is missing before sending.
 */
export function fillPlaceholders(text: string, values: PlaceholderValues): string {
  return text.replace(/\{([a-z]+\.[a-z]+)\}/g, (whole, key: string) => {
    const value = (values as unknown as Record<string, string | null | undefined>)[key];
    return value ? value : whole;
  });
}
