// Lints Dockerfiles with dockerfile-utils (the validation of the Dockerfile language server) and prints one JSON
// line per file: {"file": ..., "diagnostics": [{"line": n, "severity": n, "message": ...}]}.
// Usage: node lint-dockerfile.js FILE...   (after `npm ci` in this folder; DockerfileLintIT does both)
'use strict';
const fs = require('fs');
const { validate } = require('dockerfile-utils');

for (const file of process.argv.slice(2)) {
  const diagnostics = validate(fs.readFileSync(file, 'utf8')).map((d) => ({
    line: d.range.start.line + 1,
    severity: d.severity,
    message: d.message,
  }));
  console.log(JSON.stringify({ file, diagnostics }));
}
