import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';

/**
 * The names of the blobs a JetStream object store bucket holds now (deleted ones left out), for
 * a test that checks what a service kept or removed. Read from the bucket's stream: each
 * object's newest metadata message says its name and whether it was deleted.
 */
export async function blobKeys(natsUrl: string, bucket: string): Promise<string[]> {
  const connection = await connect({ servers: natsUrl });
  try {
    const jsm = await jetstreamManager(connection);
    const stream = `OBJ_${bucket}`;
    const info = await jsm.streams.info(stream, { subjects_filter: `$O.${bucket}.M.>` });
    const keys: string[] = [];
    for (const subject of Object.keys(info.state.subjects ?? {})) {
      const message = await jsm.streams.getMessage(stream, { last_by_subj: subject });
      const meta = message?.json<{ name: string; deleted?: boolean }>();
      if (meta && !meta.deleted) keys.push(meta.name);
    }
    return keys.sort();
  } finally {
    await connection.close();
  }
}
