/** The PostgreSQL server integration tests use; each test isolates itself inside it. */
export function testDatabaseUrl(): string {
  return process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
}

/** The NATS JetStream server integration tests use; each test uses its own streams and buckets. */
export function testNatsUrl(): string {
  return process.env.TEST_NATS_URL ?? 'nats://127.0.0.1:4222';
}
