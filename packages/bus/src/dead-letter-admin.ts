import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect, headers as natsHeaders } from '@nats-io/transport-node';
import { deadLetterStream } from './event-bus.ts';
import { deadLetterHeaders, eventIdHeader } from './message-headers.ts';
import { subjectMatches } from './subject-pattern.ts';

export interface DeadLetter {
  /** Sequence in the dead-letter stream. */
  seq: number;
  time: Date;
  stream: string;
  subject: string;
  consumer: string;
  reason: string;
  deliveries: number;
  eventId: string;
  data: Uint8Array;
  headers: Record<string, string>;
}

export interface DeadLetterQuery {
  /** Only those that came from this stream. */
  stream?: string;
  limit?: number;
}

/**
 * Operations on the JetStream dead-letter stream (scripts/deadletter.ts). Reads by
 * sequence rather than with a consumer, so listing leaves no state on the server.
 */
export async function openDeadLetters(servers: string | string[]) {
  const connection = await connect({ servers, name: 'mimamori-deadletter' });
  const js = jetstream(connection);
  const jsm = await jetstreamManager(connection);

  const list = async ({ stream, limit = 100 }: DeadLetterQuery = {}): Promise<DeadLetter[]> => {
    const { state } = await jsm.streams.info(deadLetterStream);
    const letters: DeadLetter[] = [];
    const wanted = stream ? `deadletter.${stream}.>` : 'deadletter.>';
    for (let seq = state.first_seq; seq <= state.last_seq && letters.length < limit; seq++) {
      const stored = await jsm.streams.getMessage(deadLetterStream, { seq }).catch(() => null);
      if (!stored || !subjectMatches(wanted, stored.subject)) continue;
      const all: Record<string, string> = {};
      for (const name of stored.header?.keys() ?? []) all[name] = stored.header.get(name);
      const { [deadLetterHeaders.stream]: from = '', [deadLetterHeaders.subject]: subject = '' } = all;
      letters.push({
        seq,
        time: stored.time,
        stream: from,
        subject,
        consumer: all[deadLetterHeaders.consumer] ?? '',
        reason: all[deadLetterHeaders.reason] ?? '',
        deliveries: Number(all[deadLetterHeaders.deliveries] ?? 0),
        eventId: all[eventIdHeader] ?? all['Nats-Msg-Id'] ?? '',
        data: stored.data,
        headers: Object.fromEntries(
          Object.entries(all).filter(
            ([name]) => !name.startsWith('Nats-') && !Object.values<string>(deadLetterHeaders).includes(name),
          ),
        ),
      });
    }
    return letters;
  };

  return {
    list,

    /**
     * Republishes dead letters to their original subject, then removes them. The copy keeps
     * its event id (so consumers that already applied it skip it) under a new message id
     * (so the stream's duplicate window does not drop it). Every durable of the stream gets
     * it again, not only the one that failed: consumers are idempotent on the event id.
     */
    async redrive(query: DeadLetterQuery = {}): Promise<DeadLetter[]> {
      const letters = await list(query);
      for (const letter of letters) {
        const carried = natsHeaders();
        for (const [name, value] of Object.entries(letter.headers)) carried.set(name, value);
        carried.set(eventIdHeader, letter.eventId);
        await js.publish(letter.subject, letter.data, {
          msgID: `${letter.eventId}:redrive:${letter.seq}`,
          headers: carried,
        });
        await jsm.streams.deleteMessage(deadLetterStream, letter.seq);
      }
      return letters;
    },

    close: () => connection.drain(),
  };
}
