#!/usr/bin/env -S node --max-semi-space-size=4
// The `tramita` command. Runs through the Node 24 that npm pins (node_modules/.bin/node): `npx tramita …`.
// --max-semi-space-size=4 (MB): V8 otherwise grows the young generation to ~48 MB during start-up and keeps it; 4 MB holds idle RSS under 150 MB (issue 19,
// docs/benchmarks.md).
const major = Number(process.versions.node.split('.')[0]);
if (major < 24) {
  console.error(
    `tramita needs Node 24 or newer (this is ${process.version}). Run it as \`npx tramita …\` inside the checkout after \`npm install\`, which uses the ` +
      `pinned Node 24.`,
  );
  process.exit(1);
}
// The compile cache first, from this JavaScript file: every TypeScript module, src/main.ts included,
// then comes from the cache already stripped, and Node never loads its TypeScript stripper (amaro and
// its WebAssembly memory, about 14 MB of idle RSS and tens of milliseconds of start; docs/benchmarks.md).
const { enableCompileCache } = await import('node:module');
enableCompileCache();
await import('../src/main.ts');
