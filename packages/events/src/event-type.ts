/** One kind of event: the subject it travels on, its stream, and its protobuf codec. */
export interface EventType<Payload> {
  subject: string;
  stream: string;
  encode(payload: Payload): Uint8Array;
  decode(data: Uint8Array): Payload;
}

interface ProtoCodec<Payload> {
  encode(message: Payload): { finish(): Uint8Array };
  decode(input: Uint8Array): Payload;
}

export function eventType<Payload>(
  subject: string,
  stream: string,
  codec: ProtoCodec<Payload>,
): EventType<Payload> {
  return {
    subject,
    stream,
    encode: (payload) => codec.encode(payload).finish(),
    decode: (data) => codec.decode(data),
  };
}
