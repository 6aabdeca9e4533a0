// Type declarations of wasi.js, written by hand.

/** Thrown by proc_exit: the Go runtime gave up (a fatal error). */
export class WasiExit extends Error {
  readonly code: number;
}

/** The Go runtime's environment by default (GOGC=400). */
export const defaultEnviron: Readonly<Record<string, string>>;

/** The import object of the WASI functions a2astream.wasm needs; memory() gives the instance's memory. */
export function wasiImports(
  memory: () => WebAssembly.Memory | null,
  environ?: Readonly<Record<string, string>>,
): { wasi_snapshot_preview1: Record<string, (...args: never[]) => number | bigint | void> };

/** The WASI functions the shim implements. */
export const wasiAllowList: readonly string[];
