#!/usr/bin/env node
// The installed command: runs the compiled server (dist/ is built before the package is packed).
import "../dist/bin.js"
