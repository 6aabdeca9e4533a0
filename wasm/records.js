// records.js: reading the records the module writes into its out buffer
// (the layout is wasm/records.go's) into updates, and the strings of
// a2a_status.

const REC_TEXT = 1, REC_REPLACED = 2, REC_SEALED = 3, REC_STATE = 4, REC_DONE = 5, REC_ARTIFACT = 16;

/** utf8 decodes UTF-8 the WHATWG way (invalid bytes become U+FFFD). */
export const utf8 = new TextDecoder();

// decodeUTF8 decodes m[p, p+n). Short strings (most text deltas are a
// token or two) are decoded here, as a TextDecoder call costs more than
// the decoding; longer ones, and any that is not valid UTF-8 (TextDecoder
// replaces it the WHATWG way), go to TextDecoder.
function decodeUTF8(m, p, n) {
  if (n === 0) return '';
  if (n > 64) return utf8.decode(m.subarray(p, p + n));
  let s = '';
  for (let i = p, end = p + n; i < end;) {
    const c = m[i];
    if (c < 0x80) { s += String.fromCharCode(c); i++; continue; }
    let cp, need, min;
    if (c >= 0xc2 && c <= 0xdf) { cp = c & 0x1f; need = 1; min = 0x80; }
    else if (c >= 0xe0 && c <= 0xef) { cp = c & 0x0f; need = 2; min = 0x800; }
    else if (c >= 0xf0 && c <= 0xf4) { cp = c & 0x07; need = 3; min = 0x10000; }
    else return utf8.decode(m.subarray(p, p + n));
    if (i + need >= end) return utf8.decode(m.subarray(p, p + n));
    for (let k = 1; k <= need; k++) {
      const b = m[i + k];
      if ((b & 0xc0) !== 0x80) return utf8.decode(m.subarray(p, p + n));
      cp = (cp << 6) | (b & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return utf8.decode(m.subarray(p, p + n));
    s += cp < 0x10000 ? String.fromCharCode(cp) : String.fromCharCode(0xd7c0 + (cp >> 10), 0xdc00 | (cp & 0x3ff));
    i += need + 1;
  }
  return s;
}


// u32 reads the little-endian uint32 at m[p].
function u32(m, p) { return (m[p] | m[p + 1] << 8 | m[p + 2] << 16 | m[p + 3] << 24) >>> 0; }

/**
 * readRecords appends to out the updates of the records in m[p, end). arts
 * holds the artifact snapshots by index; an artifact record replaces its
 * entry, and updates name the snapshot in force when they happened. A
 * record of an unknown kind throws an Error: the module and this file
 * disagree, and the instance must not be trusted any more.
 */
export function readRecords(m, p, end, arts, out) {
  while (p < end) {
    const kind = m[p++];
    switch (kind) {
      case REC_TEXT: case REC_REPLACED: {
        const artifact = arts[u32(m, p)], seq = u32(m, p + 4), n = u32(m, p + 8);
        out.push({ kind: kind === REC_TEXT ? 'text' : 'replaced', seq, artifact, text: decodeUTF8(m, p + 12, n) });
        p += 12 + n;
        break;
      }
      case REC_SEALED:
        out.push({ kind: 'sealed', seq: u32(m, p + 4), artifact: arts[u32(m, p)] });
        p += 8;
        break;
      case REC_STATE:
        p = readState(m, p, out);
        break;
      case REC_DONE:
        out.push({ kind: 'done', seq: u32(m, p), result: null, error: null });
        p += 5;
        break;
      case REC_ARTIFACT:
        p = readArtifact(m, p, arts);
        break;
      default:
        throw new Error(`Unknown record kind ${kind}`);
    }
  }
}

// readState appends the state update of the record at p and returns where
// the next record starts.
function readState(m, p, out) {
  const seq = u32(m, p);
  p += 5;
  const state = decodeUTF8(m, p + 4, u32(m, p));
  p += 4 + u32(m, p);
  let message = null;
  if (m[p++]) {
    const f = [];
    for (let i = 0; i < 3; i++) { const n = u32(m, p); f.push(decodeUTF8(m, p + 4, n)); p += 4 + n; }
    message = { messageId: f[0], role: f[1], text: f[2] };
  }
  out.push({ kind: 'state', seq, state, message });
  return p;
}

// readArtifact stores the artifact snapshot of the record at p in arts and
// returns where the next record starts. Updates already handed out keep
// the artifact as it was when they happened, as the Go iterator shows it.
function readArtifact(m, p, arts) {
  const index = u32(m, p), flags = m[p + 4];
  p += 5;
  const idLen = u32(m, p), id = decodeUTF8(m, p + 4, idLen);
  p += 4 + idLen;
  const nameLen = u32(m, p), name = decodeUTF8(m, p + 4, nameLen);
  p += 4 + nameLen;
  arts[index] = Object.freeze({ index, id, name, thinking: (flags & 1) !== 0, sealed: (flags & 2) !== 0 });
  return p;
}

/** readStatus reads a2a_status's out buffer at p: the task id and the last event id. */
export function readStatus(m, p) {
  const n = u32(m, p), taskId = decodeUTF8(m, p + 4, n);
  const lastEventId = decodeUTF8(m, p + 8 + n, u32(m, p + 4 + n));
  return { taskId, lastEventId };
}
