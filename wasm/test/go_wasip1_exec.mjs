// go_wasip1_exec.mjs runs a Go test binary built for GOOS=wasip1 under
// Node's WASI, the way misc/wasm/go_wasip1_wasm_exec runs it under wazero:
//
//	GOOS=wasip1 GOARCH=wasm go test -exec="node $PWD/wasm/test/go_wasip1_exec.mjs" ./parser/
//
// The whole file system is preopened at / and PWD is the package's folder,
// so tests that open ../internal/samples/x.sse find it. The exit code is the test's:
// proc_exit ends the process at once (returnOnExit false), as unwinding out
// of the instance and then exiting makes Node 20 crash in its teardown more
// often than not (exit status 139 after PASS).
import { WASI } from 'node:wasi';
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';

const [bin, ...args] = process.argv.slice(2);
if (!bin) {
  console.error('usage: node go_wasip1_exec.mjs TEST.wasm [ARGS...]');
  process.exit(2);
}
const wasi = new WASI({
  version: 'preview1',
  args: [basename(bin), ...args],
  env: { ...process.env, PWD: process.cwd() },
  preopens: { '/': '/' },
  returnOnExit: false,
});
const module = await WebAssembly.compile(await readFile(bin));
const instance = await WebAssembly.instantiate(module, wasi.getImportObject());
process.exitCode = wasi.start(instance);
