import pino, { type Logger } from 'pino';

/** Structured JSON logs on stdout; secrets in headers never reach them. */
export function createLogger(level: string): Logger {
  return pino({ level, redact: ['req.headers.authorization', '*.password', '*.token'], base: { service: 'svc-chat' } });
}
