import { createClient } from 'redis';

export const newRedisClient = (url: string) => createClient({ url });
export type RedisClient = ReturnType<typeof newRedisClient>;
