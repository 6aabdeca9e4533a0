// The WASI preview 1 functions the Go wasip1 runtime of a2astream.wasm
// imports, and nothing more: no files, no sockets. Output on fd 1 and 2
// (Go writes a fatal panic there) goes to the console, line by line.

/** WasiExit is thrown by proc_exit: the Go runtime gave up (a fatal error). */
export class WasiExit extends Error {
  constructor(code) { super(`The Go runtime exited with code ${code}`); this.code = code; }
}

const ESUCCESS = 0, EBADF = 8, ENOTSUP = 58;

/**
 * defaultEnviron is the Go runtime's environment: GOGC=400 makes the
 * collector run a quarter as often (the heap of a page's streams is small),
 * which halves its share of the time.
 */
export const defaultEnviron = Object.freeze({ GOGC: '400' });

/** wasiImports returns the import object; memory() gives the instance's memory. */
export function wasiImports(memory, environ = defaultEnviron) {
  const env = Object.entries(environ).map(([k, v]) => `${k}=${v}`);
  const envBytes = new TextEncoder().encode(env.map((e) => e + '\0').join(''));
  const view = () => new DataView(memory().buffer);
  const bytes = (p, n) => new Uint8Array(memory().buffer, p, n);
  const lines = { 1: '', 2: '' }, decoder = new TextDecoder();
  const now = (id) => id === 0 ? BigInt(Date.now()) * 1000000n : BigInt(Math.round(performance.now() * 1e6));
  const wasi = {
    args_sizes_get(argc, size) { view().setUint32(argc, 0, true); view().setUint32(size, 0, true); return ESUCCESS; },
    args_get() { return ESUCCESS; },
    environ_sizes_get(n, size) { view().setUint32(n, env.length, true); view().setUint32(size, envBytes.length, true); return ESUCCESS; },
    environ_get(ptrs, buf) {
      for (let i = 0, off = 0; i < env.length; off += env[i].length + 1, i++) view().setUint32(ptrs + 4 * i, buf + off, true);
      bytes(buf, envBytes.length).set(envBytes);
      return ESUCCESS;
    },
    clock_time_get(id, _precision, out) { view().setBigUint64(out, now(id), true); return ESUCCESS; },
    random_get(p, n) {
      for (let i = 0; i < n; i += 65536) crypto.getRandomValues(bytes(p + i, Math.min(65536, n - i)));
      return ESUCCESS;
    },
    fd_write(fd, iovs, count, written) {
      if (fd !== 1 && fd !== 2) return EBADF;
      const v = view(); let total = 0;
      for (let i = 0; i < count; i++) {
        const p = v.getUint32(iovs + 8 * i, true), n = v.getUint32(iovs + 8 * i + 4, true);
        lines[fd] += decoder.decode(bytes(p, n), { stream: true }); total += n;
      }
      const cut = lines[fd].lastIndexOf('\n');
      if (cut >= 0) { (fd === 2 ? console.error : console.log)(lines[fd].slice(0, cut)); lines[fd] = lines[fd].slice(cut + 1); }
      view().setUint32(written, total, true);
      return ESUCCESS;
    },
    fd_fdstat_get(fd, out) {
      if (fd > 2) return EBADF;
      const v = view();
      v.setUint8(out, 2); v.setUint16(out + 2, 0, true); // a character device, no flags
      v.setBigUint64(out + 8, 0n, true); v.setBigUint64(out + 16, 0n, true);
      return ESUCCESS;
    },
    fd_fdstat_set_flags() { return ENOTSUP; },
    fd_prestat_get() { return EBADF; }, // no preopened directories
    fd_prestat_dir_name() { return EBADF; },
    fd_close() { return EBADF; },
    sched_yield() { return ESUCCESS; },
    proc_exit(code) { throw new WasiExit(code); },
    // poll_oneoff only ever waits for clocks here: it busy-waits until the
    // earliest one is due and reports every subscription as ready.
    poll_oneoff(subs, events, n, nevents) {
      const v = view(); let wait = Infinity;
      for (let i = 0; i < n; i++) {
        const s = subs + 48 * i;
        if (v.getUint8(s + 8) !== 0) { wait = 0; continue; }
        let t = Number(v.getBigUint64(s + 24, true));
        if (v.getUint16(s + 40, true) & 1) t -= Number(now(v.getUint32(s + 16, true)));
        wait = Math.min(wait, Math.max(t, 0) / 1e6);
      }
      const until = performance.now() + (wait === Infinity ? 0 : wait);
      while (performance.now() < until) { /* busy-wait: the page has nothing else to run meanwhile */ }
      const w = view();
      for (let i = 0; i < n; i++) {
        const s = subs + 48 * i, e = events + 32 * i;
        w.setBigUint64(e, w.getBigUint64(s, true), true);
        w.setUint16(e + 8, 0, true); w.setUint8(e + 10, w.getUint8(s + 8));
      }
      w.setUint32(nevents, n, true);
      return ESUCCESS;
    },
  };
  return { wasi_snapshot_preview1: wasi };
}

/** The WASI functions the shim implements: a module importing any other cannot load. */
export const wasiAllowList = Object.freeze(Object.keys(wasiImports(() => null).wasi_snapshot_preview1));
