// The npm tarball: what `npm pack` puts in it, and the package.json fields
// a registry shows (licence, repository).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureModule, repoDir, wasmDir } from './helpers.mjs';

const pkg = JSON.parse(readFileSync(join(wasmDir, 'package.json'), 'utf8'));

test('npm pack puts the module, its wrapper (a file per job) and types, the README and the licence in the tarball, and nothing else', () => {
  ensureModule();
  // --ignore-scripts: prepack would build the module again; CI built it.
  const [info] = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: wasmDir, encoding: 'utf8' }));
  const files = info.files.map((f) => f.path).sort();
  assert.deepEqual(files, ['LICENSE', 'README.md', 'a2astream.d.ts', 'a2astream.js', 'a2astream.node.js', 'a2astream.wasm', 'ai-sdk.d.ts', 'ai-sdk.js', 'client.js', 'engine.js',
    'errors.js', 'http.js', 'loading.js', 'package.json', 'records.js', 'view.js', 'wasi.d.ts', 'wasi.js']);
});

test('the package\'s LICENSE is the repository\'s, and package.json names it and the repository', () => {
  assert.equal(readFileSync(join(wasmDir, 'LICENSE'), 'utf8'), readFileSync(join(repoDir, 'LICENSE'), 'utf8'));
  assert.match(readFileSync(join(repoDir, 'LICENSE'), 'utf8'), /^MIT License/);
  assert.equal(pkg.license, 'MIT');
  assert.equal(pkg.repository.url, 'git+https://github.com/a2astream/a2astream.git');
  assert.equal(pkg.repository.directory, 'wasm');
  for (const f of pkg.files) assert.ok(!f.includes('*'), `files lists ${f} by name`);
});
