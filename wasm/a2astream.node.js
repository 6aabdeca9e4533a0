// a2astream.node.js is the package's entry in Node (the "node" export
// condition): a2astream.js, with load() able to read the module from a
// file: URL or a path, as it does by default. Browsers and bundlers for the
// web get a2astream.js, which names no Node module.
import { readFile } from 'node:fs/promises';
import { _setFileReader } from './loading.js';

_setFileReader(readFile);

export * from './a2astream.js';
