/** `SVC_DB` names PostgreSQL with a URL; anything else is a SQLite file path. */
export const isPostgresUrl = (value: string) => /^postgres(ql)?:\/\//i.test(value);
