#!/usr/bin/env node
// The `tramita` command. Runs through the Node 24 that npm pins (node_modules/.bin/node): `npx tramita …`.
const major = Number(process.versions.node.split('.')[0]);
if (major < 24) {
  console.error(`tramita needs Node 24 or newer (this is ${process.version}). Run it as \`npx tramita …\` inside the checkout after \`npm install\`, which uses the pinned Node 24.`);
  process.exit(1);
}
await import('../src/main.ts');
