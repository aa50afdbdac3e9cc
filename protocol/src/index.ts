export * from './errors.ts';
export * from './text.ts';
export * from './media.ts';
export * from './agent-api.ts';
export * from './agent-events.ts';
export * from './chat-api.ts';
export * from './widget-api.ts';
export * from './bot-api.ts';
