import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';

export interface BusWatch {
  /**
   * Whether every durable consumer of the namespace's streams has taken and acknowledged every
   * message: the services ack after their handler's transaction committed, so nothing published
   * is still being written down.
   */
  idle(): Promise<boolean>;
  /**
   * Whether the durable consumer `durable` of `stream` (its full name, namespace included) has
   * acknowledged every message up to the stream sequence `seq`: its handler ran and committed.
   */
  consumed(stream: string, durable: string, seq: number): Promise<boolean>;
  close(): Promise<void>;
}

/** Watches the streams named `<namespace>_…` (every stream when the namespace is empty). */
export async function watchBus(natsUrl: string, namespace: string): Promise<BusWatch> {
  const connection = await connect({ servers: natsUrl });
  const jsm = await jetstreamManager(connection);
  return {
    async idle() {
      for await (const stream of jsm.streams.list()) {
        if (namespace && !stream.config.name.startsWith(`${namespace}_`)) continue;
        // Object-store buckets keep blobs, not messages anyone consumes.
        if (stream.config.name.startsWith('OBJ_')) continue;
        for await (const consumer of jsm.consumers.list(stream.config.name)) {
          if (consumer.num_pending > 0 || consumer.num_ack_pending > 0) return false;
        }
      }
      return true;
    },
    async consumed(stream, durable, seq) {
      const info = await jsm.consumers.info(stream, durable);
      return info.ack_floor.stream_seq >= seq;
    },
    close: () => connection.close(),
  };
}
