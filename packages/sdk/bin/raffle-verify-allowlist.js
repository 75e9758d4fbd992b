#!/usr/bin/env node
// A committed shim, so the bin exists (and pnpm can link it) before the package is built.
import '../dist/cli/verify-allowlist.js';
