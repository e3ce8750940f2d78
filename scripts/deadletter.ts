// Lists or redrives the events that exhausted their deliveries:
//   tsx scripts/deadletter.ts list|redrive [--stream S] [--limit N]
// against NATS_URL (default nats://127.0.0.1:4222).
import { parseArgs } from 'node:util';
import { openDeadLetters } from '../packages/bus/src/index.ts';

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: { stream: { type: 'string' }, limit: { type: 'string', default: '100' } },
});
const command = positionals[0];
const limit = Number(values.limit);
if ((command !== 'list' && command !== 'redrive') || !Number.isInteger(limit) || limit < 1) {
  console.error('usage: tsx scripts/deadletter.ts list|redrive [--stream S] [--limit N]');
  process.exit(2);
}

const deadLetters = await openDeadLetters(process.env.NATS_URL ?? 'nats://127.0.0.1:4222');
try {
  const query = { limit, ...(values.stream ? { stream: values.stream } : {}) };
  const letters = command === 'list' ? await deadLetters.list(query) : await deadLetters.redrive(query);
  for (const letter of letters) {
    console.log(
      [
        letter.seq,
        letter.time.toISOString(),
        letter.stream,
        letter.subject,
        letter.consumer,
        letter.deliveries,
        letter.eventId,
        letter.reason,
      ].join('\t'),
    );
  }
  console.error(`${letters.length} dead letter(s) ${command === 'list' ? 'listed' : 'redriven'}`);
} finally {
  await deadLetters.close();
}
