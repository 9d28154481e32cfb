import { Transform } from 'node:stream';
import { type Message, msg } from '@portal/core';
import { ApiError } from '../http/errors';

/**
 * Passes bytes through and counts them (`counted.bytes`); past `max` the stream fails with 413 and `message`, so an
 * upload never grows past what was allowed, whatever the client declared.
 */
export function byteLimit(max: number, counted: { bytes: number }, message: Message = msg('At most {{max}} bytes may be sent here.', { max })): Transform {
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      counted.bytes += chunk.length;
      if (counted.bytes > max) done(new ApiError(413, message));
      else done(null, chunk);
    },
  });
}
