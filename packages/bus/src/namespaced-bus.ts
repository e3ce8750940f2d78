import { type Consumption, deadLetterStream, type EventBus } from './event-bus.ts';

/**
 * A view of a bus whose streams (`<namespace>_<name>`) and subjects (`<namespace>.<subject>`)
 * belong to one test, so test files sharing a NATS server cannot see each other's events.
 * Code under test keeps using its real stream and subject names. Closing it deletes the
 * streams it declared (unless `keepStreams`: a service process of a namespaced environment
 * must leave them to its siblings), then closes the underlying bus. Dead letters still go to the shared
 * `DEADLETTER` stream, under the namespaced names.
 */
export function namespacedBus(
  bus: EventBus,
  namespace: string,
  options: { keepStreams?: boolean } = {},
): EventBus {
  if (!/^[A-Za-z0-9_-]+$/.test(namespace)) throw new Error(`invalid namespace: ${namespace}`);
  const streamName = (name: string) => (name === deadLetterStream ? name : `${namespace}_${name}`);
  const subjectPrefix = `${namespace}.`;
  const inside = (subject: string) => `${subjectPrefix}${subject}`;
  const outside = (subject: string) =>
    subject.startsWith(subjectPrefix) ? subject.slice(subjectPrefix.length) : subject;
  const declared = new Set<string>();
  const consumptions = new Set<Consumption>();

  return {
    async declareStreams(streams) {
      await bus.declareStreams(
        streams.map((stream) => ({
          ...stream,
          name: streamName(stream.name),
          subjects: stream.subjects.map(inside),
        })),
      );
      for (const stream of streams) declared.add(streamName(stream.name));
    },

    async publish(subject, data, options) {
      const ack = await bus.publish(inside(subject), data, options);
      return {
        ...ack,
        stream: ack.stream.startsWith(`${namespace}_`) ? ack.stream.slice(namespace.length + 1) : ack.stream,
      };
    },

    async consume(spec, handler) {
      const isDeadLetters = spec.stream === deadLetterStream;
      const running = await bus.consume(
        {
          ...spec,
          stream: streamName(spec.stream),
          ...(spec.filterSubject
            ? { filterSubject: isDeadLetters ? spec.filterSubject : inside(spec.filterSubject) }
            : {}),
        },
        (message) => handler({ ...message, subject: outside(message.subject) }),
      );
      const consumption = {
        async stop() {
          consumptions.delete(consumption);
          await running.stop();
        },
      };
      consumptions.add(consumption);
      return consumption;
    },

    hasStream: (name) => bus.hasStream(streamName(name)),

    async deleteStream(name) {
      declared.delete(streamName(name));
      await bus.deleteStream(streamName(name));
    },

    async close() {
      await Promise.all([...consumptions].map((consumption) => consumption.stop()));
      if (!options.keepStreams) for (const name of declared) await bus.deleteStream(name);
      await bus.close();
    },
  };
}
