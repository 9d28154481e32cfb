import { crc32 } from './crc32';

export interface ZipEntry {
  name: string;
  data: Uint8Array | string;
}

const encoder = new TextEncoder();

// Fixed DOS timestamp (1980-01-01 00:00): exports need no real mtime and this keeps output reproducible.
const DOS_TIME = 0;
const DOS_DATE = (0 << 9) | (1 << 5) | 1;
// Bit 11: names are UTF-8.
const FLAGS = 0x0800;

function header(size: number, write: (view: DataView) => void): Uint8Array {
  const bytes = new Uint8Array(size);
  write(new DataView(bytes.buffer));
  return bytes;
}

/**
 * Yields a zip archive with stored (uncompressed) entries, piece by piece, so a server can stream it.
 * Stored entries keep the writer tiny and dependency-free; xlsx readers accept them. No zip64: entries
 * and the archive must stay under 4 GiB.
 */
export function* zipParts(entries: Iterable<ZipEntry>): Generator<Uint8Array> {
  const central: Uint8Array[] = [];
  let offset = 0;
  let count = 0;
  for (const entry of entries) {
    const name = encoder.encode(entry.name);
    const data = typeof entry.data === 'string' ? encoder.encode(entry.data) : entry.data;
    const crc = crc32(data);
    const local = header(30 + name.length, (v) => {
      v.setUint32(0, 0x04034b50, true);
      v.setUint16(4, 20, true);
      v.setUint16(6, FLAGS, true);
      v.setUint16(8, 0, true); // method 0: stored
      v.setUint16(10, DOS_TIME, true);
      v.setUint16(12, DOS_DATE, true);
      v.setUint32(14, crc, true);
      v.setUint32(18, data.length, true);
      v.setUint32(22, data.length, true);
      v.setUint16(26, name.length, true);
      v.setUint16(28, 0, true);
    });
    local.set(name, 30);
    central.push(
      (() => {
        const c = header(46 + name.length, (v) => {
          v.setUint32(0, 0x02014b50, true);
          v.setUint16(4, 20, true);
          v.setUint16(6, 20, true);
          v.setUint16(8, FLAGS, true);
          v.setUint16(10, 0, true);
          v.setUint16(12, DOS_TIME, true);
          v.setUint16(14, DOS_DATE, true);
          v.setUint32(16, crc, true);
          v.setUint32(20, data.length, true);
          v.setUint32(24, data.length, true);
          v.setUint16(28, name.length, true);
          v.setUint32(42, offset, true);
        });
        c.set(name, 46);
        return c;
      })(),
    );
    yield local;
    yield data;
    offset += local.length + data.length;
    count++;
  }
  let centralSize = 0;
  for (const c of central) {
    yield c;
    centralSize += c.length;
  }
  yield header(22, (v) => {
    v.setUint32(0, 0x06054b50, true);
    v.setUint16(8, count, true);
    v.setUint16(10, count, true);
    v.setUint32(12, centralSize, true);
    v.setUint32(16, offset, true);
  });
}

/** Joins byte chunks into one array. */
export function concatBytes(parts: Iterable<Uint8Array>): Uint8Array {
  const list = [...parts];
  const out = new Uint8Array(list.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of list) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

export function zip(entries: Iterable<ZipEntry>): Uint8Array {
  return concatBytes(zipParts(entries));
}
