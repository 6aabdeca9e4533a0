// readme.mjs type-checks the TypeScript snippets of the package's
// README.md and of the repository's README.md with tsc --strict: each
// ```ts block becomes a module of its own under test/out/readme/, importing
// the package by its name as a user's code does. Exits non-zero when a
// snippet does not compile, a README has none, or one has js snippets.
//
//	node wasm/test/readme.mjs
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { wasmDir } from './helpers.mjs';

const dir = join(wasmDir, 'test', 'out', 'readme');
rmSync(dir, { recursive: true, force: true });
mkdirSync(dir, { recursive: true });
const files = [];
for (const [name, path] of [['package', join(wasmDir, 'README.md')], ['repository', join(wasmDir, '..', 'README.md')]]) {
  const readme = readFileSync(path, 'utf8');
  const blocks = [...readme.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((m) => m[1]);
  const js = [...readme.matchAll(/^```(?:js|javascript)\n/gm)].length;
  if (blocks.length === 0 || js > 0) {
    console.error(`${path}: ${blocks.length} ts snippets, ${js} js ones: write the snippets as ts, so that they are checked`);
    process.exit(1);
  }
  blocks.forEach((b, i) => {
    if (!/from 'a2astream'/.test(b)) {
      console.error(`${path}: snippet ${i + 1} does not import 'a2astream'`);
      process.exit(1);
    }
    const f = `${name}${i + 1}.ts`;
    writeFileSync(join(dir, f), b);
    files.push(f);
  });
}
writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({
  compilerOptions: {
    strict: true, noEmit: true, target: 'es2022', module: 'nodenext', moduleResolution: 'nodenext',
    // skipLibCheck: the declarations of ai (a2astream/ai-sdk's snippets)
    // need Node's types; a2astream.d.ts is checked on its own by
    // test/types/tsconfig.json, without it.
    lib: ['es2022', 'dom', 'dom.iterable', 'dom.asynciterable'], types: [], skipLibCheck: true,
    noUnusedLocals: false,
  },
  files,
}, null, 2));
execFileSync(join(wasmDir, 'node_modules', '.bin', 'tsc'), ['-p', join(dir, 'tsconfig.json')], { stdio: 'inherit' });
console.log(`README.md (package and repository): ${files.length} snippets compile with tsc --strict`);
