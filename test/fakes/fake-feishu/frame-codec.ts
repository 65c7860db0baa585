import protobuf from 'protobufjs';

/**
 * One `pbbp2.Header` of a long-connection frame: every header is a string pair
 * (`type=event`, `message_id=…`, `sum=3`, `seq=0`, `trace_id=…`, `biz_rt=…`).
 */
export interface FrameHeader {
  key: string;
  value: string;
}

/**
 * One `pbbp2.Frame`: what travels in every binary WebSocket message of Feishu's long connection.
 * `method` 0 = control (ping/pong), 1 = data (events and their acks). SeqID/LogID are uint64 on the
 * wire; the fake keeps them below 2^53 so plain numbers are exact.
 */
export interface Frame {
  SeqID: number;
  LogID: number;
  service: number;
  method: number;
  headers: FrameHeader[];
  payloadEncoding?: string;
  payloadType?: string;
  payload?: Uint8Array;
  LogIDNew?: string;
}

/** `method` values of {@link Frame}. */
export const FrameMethod = { control: 0, data: 1 } as const;

// proto2 schema, field for field as compiled into @larksuiteoapi/node-sdk (lib/index.js, `pbbp2`).
const root = protobuf.Root.fromJSON({
  nested: {
    pbbp2: {
      nested: {
        Header: {
          fields: {
            key: { rule: 'required', type: 'string', id: 1 },
            value: { rule: 'required', type: 'string', id: 2 },
          },
        },
        Frame: {
          fields: {
            SeqID: { rule: 'required', type: 'uint64', id: 1 },
            LogID: { rule: 'required', type: 'uint64', id: 2 },
            service: { rule: 'required', type: 'int32', id: 3 },
            method: { rule: 'required', type: 'int32', id: 4 },
            headers: { rule: 'repeated', type: 'Header', id: 5 },
            payloadEncoding: { type: 'string', id: 6 },
            payloadType: { type: 'string', id: 7 },
            payload: { type: 'bytes', id: 8 },
            LogIDNew: { type: 'string', id: 9 },
          },
        },
      },
    },
  },
});
const FrameType = root.lookupType('pbbp2.Frame');

/** Encodes a frame exactly as the SDK's `pbbp2.Frame.encode` would (binary protobuf). */
export function encodeFrame(frame: Frame): Uint8Array {
  return FrameType.encode(FrameType.fromObject(frame)).finish();
}

/** Decodes one binary WebSocket message into a {@link Frame}; throws on malformed input. */
export function decodeFrame(bytes: Uint8Array): Frame {
  const message = FrameType.decode(bytes);
  const plain = FrameType.toObject(message, { longs: Number, defaults: false, arrays: true }) as Frame;
  return { ...plain, headers: plain.headers ?? [] };
}

/** The value of header `key` in `frame`, or undefined. */
export function frameHeader(frame: Frame, key: string): string | undefined {
  return frame.headers.find((h) => h.key === key)?.value;
}
