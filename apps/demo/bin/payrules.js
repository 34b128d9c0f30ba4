#!/usr/bin/env node
// The installed command: runs the compiled command line (dist/ is built before the package is packed).
import "../dist/main.js"
