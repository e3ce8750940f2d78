export { blobKeys } from './blob-keys.ts';
export { type BusWatch, watchBus } from './bus-watch.ts';
export { dropSchemas } from './drop-schemas.ts';
export { createFreshDatabase, type FreshDatabase } from './fresh-database.ts';
export { createHttpVisitor, type HttpVisitor, type VisitorResponse } from './http-visitor.ts';
export { type OwnServer, startOwnNats, startOwnPostgres } from './own-servers.ts';
export { testDatabaseUrl, testNatsUrl } from './server-urls.ts';
export {
  type SmtpServerFixture,
  type SmtpServerFixtureOptions,
  startSmtpServer,
} from './smtp-server-fixture.ts';
export { startTestServiceHost, TestClock, type TestServiceHost } from './test-service-host.ts';
export { TEST_MINUTE_MS, TEST_TIME_SCALE, testTimeEnv } from './time-scale.ts';
export { uniqueName } from './unique-name.ts';
export { type ReceivedDelivery, startWebhookReceiver, type WebhookReceiver } from './webhook-receiver.ts';
export { itWithServers } from './with-servers.ts';
export { installWriteMeter, serviceSchemas, type WriteMeter, type WriteReading } from './write-meter.ts';
